/**
 * The first mail: send one, then read its activity's `current_status`.
 *
 *   MAILROOM_URL=https://api.example.com MAILROOM_API_KEY=sk_test_... \
 *   MAILROOM_FROM=hello@mail.example.com MAILROOM_TO=ada@example.com npx tsx examples/first-mail.ts
 */
import { createMailroomClient } from '@mailroom/client';

export interface FirstMailOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** A sender on a verified domain of the project. */
  readonly from: string;
  readonly to: string;
}

/** Sends one mail and answers its activity id and current status (`queued`, `sent`, `delivered`, ...). */
export async function firstMail(options: FirstMailOptions) {
  const client = createMailroomClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  const sent = await client.POST('/v1/send-email', {
    body: { recipient_email: options.to, sender_email: options.from, subject: 'Hello from Mailroom', html_body: '<p>It works.</p>' },
  });
  // `error` is typed by status: here the part-7 `{ error }` message of a refused send.
  if (sent.error) throw new Error(`Send refused (${sent.response.status}): ${sent.error.error}`);

  const activity = await client.GET('/v1/activity/{id}', { params: { path: { id: sent.data.email_id } } });
  if (activity.error) throw new Error(`Activity unreadable (${activity.response.status}): ${activity.error.error}`);
  return { emailId: sent.data.email_id, currentStatus: activity.data.data.current_status };
}

if (require.main === module) {
  const env = (name: string) => process.env[name] ?? (console.error(`Set ${name}`), process.exit(2));
  firstMail({ baseUrl: env('MAILROOM_URL'), apiKey: env('MAILROOM_API_KEY'), from: env('MAILROOM_FROM'), to: env('MAILROOM_TO') }).then(
    (result) => console.log(result),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
