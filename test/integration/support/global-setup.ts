import { startSharedDynamoDb } from './shared-dynamodb';

/** jest globalSetup of the integration project: the DynamoDB Local every test file shares. */
export default startSharedDynamoDb;
