import { randomBytes } from 'node:crypto';
import type http from 'node:http';

/** Answers an SES v2 JSON request with `body`, as SES does (a request id beside it). */
export function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-requestid': randomBytes(8).toString('hex') });
  res.end(JSON.stringify(body));
}

/** Answers an SES v2 JSON request with an error the SDK maps to its exception by `type`. */
export function error(res: http.ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ message }));
}
