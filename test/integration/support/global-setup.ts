import { stackPolicyMap } from '../../../local/iam/policy-map';
import { startSharedDynamoDb } from './shared-dynamodb';

/**
 * jest globalSetup of the integration project: the DynamoDB Local every test file shares, and the
 * stack's policy map that every test cloud enforces (synthesized here once when the stack changed,
 * so that no test file's start pays for it).
 */
export default async function globalSetup(): Promise<void> {
  stackPolicyMap();
  await startSharedDynamoDb();
}
