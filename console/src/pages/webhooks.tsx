/** Webhooks: the project's URLs per slot and environment, the signing secret, and the recent deliveries. */
import { PageHeader } from '../components/ui';
import type { ProjectPageProps } from './page';
import { Deliveries, FailedForGood } from './webhooks/deliveries';
import { SigningSecret } from './webhooks/signing-secret';
import { WebhookUrls } from './webhooks/webhook-urls';

/** The Webhooks page. */
export function Webhooks(props: ProjectPageProps) {
  return (
    <>
      <PageHeader title="Webhooks" subtitle="Where the project's events are posted, the secret that signs them, and what the receivers answered." />
      <WebhookUrls session={props.session} />
      <SigningSecret session={props.session} />
      <Deliveries route={props.route} session={props.session} />
      <FailedForGood route={props.route} />
    </>
  );
}
