/**
 * What an API request can carry in AWS. API Gateway's HTTP API takes request bodies up to 10 MB
 * (its "Payload size" quota, fixed) and answers 413 itself above that. But it hands each request to
 * a function by a synchronous Lambda invoke, whose request payload (the whole HTTP API event as JSON:
 * headers, request context, and the body as a JSON string, binary bodies in base64) may be at most
 * 6 MB; a larger request never reaches the function and API Gateway answers a 5xx of its own. So the
 * service documents one limit below both: a request body of at most 5 MB as carried in the event.
 */
export const PAYLOAD_LIMITS = {
  /** API Gateway HTTP API's payload size quota. */
  apiGatewayBodyBytes: 10 * 1024 * 1024,
  /** Lambda's synchronous invoke request payload: the event, serialized. */
  lambdaEventBytes: 6 * 1024 * 1024,
  /**
   * The largest request body the API accepts, counted as the event carries it (a binary body at its
   * base64 size). The 1 MB left below Lambda's limit holds the rest of the event: headers (at most
   * 10 KB with the request line, API Gateway's quota), the request context, and the escapes JSON
   * adds to a text body (a `"` becomes `\"`).
   */
  requestBodyBytes: 5 * 1024 * 1024,
} as const;

/** Bytes of the body as the event carries it. */
export function eventBodyBytes(body: string | undefined | null): number {
  return body ? Buffer.byteLength(body, 'utf8') : 0;
}
