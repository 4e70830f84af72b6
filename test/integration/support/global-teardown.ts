import { stopSharedDynamoDb } from './shared-dynamodb';

/** jest globalTeardown of the integration project: stops the shared DynamoDB Local. */
export default stopSharedDynamoDb;
