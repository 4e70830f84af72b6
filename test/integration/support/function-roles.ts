/**
 * Every function's handler module, as the integration and fault tests import it, with its handler
 * watched (local/iam/function-roles.ts): local IAM checks only calls made as a function's role, so
 * a test that invokes a worker or a job directly without its role would go unchecked. Such a call
 * still runs as the role, and fails its file when the test cloud stops.
 */
import path from 'node:path';
import { functionEntries, watchedHandler, type FunctionName } from '../../../local/iam/function-roles';

const ROOT = path.resolve(__dirname, '../../..');

for (const [name, entry] of Object.entries(functionEntries) as [FunctionName, string][]) {
  const file = path.join(ROOT, entry);
  jest.doMock(file, () => {
    const actual = jest.requireActual<Record<string, unknown>>(file);
    const handler = actual.handler as (...args: unknown[]) => unknown;
    // The module as it is (its other exports, its ES-module marker), with the handler watched.
    return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(actual), handler: { value: watchedHandler(name, handler), enumerable: true } });
  });
}
