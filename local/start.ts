import path from 'node:path';
import { startLocalCloud } from './cloud';

/** `npm start`: the whole service on this machine. Ctrl-C stops every child process. */
async function main(): Promise<void> {
  const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const started = Date.now();
  const dataDir = process.env.LOCAL_DATA_DIR ?? '.local';
  const cloud = await startLocalCloud({
    dataDir,
    persist: true,
    ports: {
      api: port('PORT', 3000),
      dynamodb: port('DYNAMODB_PORT', 8000),
      sqs: port('SQS_PORT', 9324),
      ses: port('SES_PORT', 8005),
      s3: port('S3_PORT', 4569),
    },
  });
  const { seed } = cloud;
  console.log(`
Mailroom is running (started in ${((Date.now() - started) / 1000).toFixed(1)} s)

  API            ${cloud.baseUrl}
  Console        ${cloud.baseUrl}/console        (sign in with the live key below)
  SES outbox     ${cloud.sesUrl}        (raw .eml files in ${cloud.outboxDir})
  Project        ${seed.project_id}
  Live key       ${seed.live_key}
  Test key       ${seed.test_key}
  Partner key    ${seed.partner_key}
  Sender         ${seed.sender_email}
  Seed file      ${path.join(dataDir, 'seed.json')}
  IAM            each function's AWS calls are checked against its role in the CDK stack (docs/local-iam.md)

Send a first mail:

  curl -s ${cloud.baseUrl}/v1/send-email \\
    -H "Authorization: Bearer ${seed.live_key}" -H "Content-Type: application/json" \\
    -d '{"recipient_email":"you@example.com","sender_email":"${seed.sender_email}","subject":"Hello","html_body":"<p>It works</p>"}'

or open ${cloud.baseUrl}/console, sign in with the live key, and use "Send a test mail".

Press Ctrl-C to stop.
`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the local cloud...`);
    await cloud.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: Error) => {
  console.error(`\nThe local cloud could not start:\n${error.message}`);
  process.exit(1);
});
