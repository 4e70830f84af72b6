/**
 * AWS list prices used by the benchmark: us-east-1, on-demand, as published on 2026-11-24 (the
 * date the figures in docs/cost.md were measured). Per unit, in US dollars.
 */
export const PRICES_DATE = '2026-11-24';

export const PRICES = {
  /** DynamoDB on-demand: $0.625 per million write request units. */
  dynamodbWriteUnit: 0.625 / 1e6,
  /** DynamoDB on-demand: $0.125 per million read request units. */
  dynamodbReadUnit: 0.125 / 1e6,
  /** SQS standard queue: $0.40 per million requests (each 64 KB chunk of a payload is a request). */
  sqsRequest: 0.4 / 1e6,
  /** SNS standard topic: $0.50 per million publishes; delivery to SQS is free. */
  snsPublish: 0.5 / 1e6,
  /** EventBridge: SES sending events are opt-in data events, $1.00 per million; rules and same-account delivery are free. */
  eventBridgeEvent: 1.0 / 1e6,
  /** Lambda: $0.20 per million requests (either architecture). */
  lambdaRequest: 0.2 / 1e6,
  /** Lambda arm64 (lib/project-function.ts builds every function for ARM_64): $0.0000133334 per GB-second. */
  lambdaGbSecondArm: 0.0000133334,
  /** Lambda x86_64, for comparison: $0.0000166667 per GB-second. */
  lambdaGbSecondX86: 0.0000166667,
  /** API Gateway HTTP API: $1.00 per million requests (first 300 million a month); listed apart. */
  apiGatewayHttpRequest: 1.0 / 1e6,
} as const;

/** SES: $0.10 per 1,000 mails. */
export const SES_PRICE_PER_MAIL = 0.1 / 1000;

/** S3 Standard: $0.005 per 1,000 PUT requests and $0.0004 per 1,000 GET requests (batch payloads). */
export const S3_PRICES = {
  put: 0.005 / 1000,
  get: 0.0004 / 1000,
} as const;
