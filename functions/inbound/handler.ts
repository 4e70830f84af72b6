import type { S3Event } from 'aws-lambda';
import { inboundServices } from '../../composition/inbound';
import { handleInboundObject, type InboundResult } from '../../shared/mail-pipeline/inbound/handle-inbound';
import { createdObjects } from '../../shared/mail-pipeline/inbound/s3-event';
import { lambdaHandler } from '../../shared/platform/core/lambda-handler';

/**
 * Inbound replies: invoked by the inbound bucket's ObjectCreated notification (prefix `inbound/`)
 * for each mail the SES receipt rule stores, and locally by `POST /_local/inbound` with the same
 * event. An error fails the invocation, and Lambda's asynchronous retries redeliver the event; the
 * per-object marker keeps a redelivery from publishing twice.
 */
export const handler = lambdaHandler(async (event: S3Event): Promise<{ results: InboundResult[] }> => {
  const deps = inboundServices();
  const results: InboundResult[] = [];
  for (const object of createdObjects(event)) results.push(await handleInboundObject(deps, object));
  return { results };
});
