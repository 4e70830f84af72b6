import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
const c = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: 'http://127.0.0.1:44791', region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
const a = '88c81e40-8b32-4f48-b9d1-547b17a0b3ea';
const keys = Array.from({ length: 16 }, (_, s) => ({ pk: `AUTOSTAT#${a}#${s}`, sk: 'COUNTS' }));
const r = await c.send(new BatchGetCommand({ RequestItems: { mailroom: { Keys: keys } } }));
const sum = {};
for (const it of r.Responses.mailroom) for (const [k, v] of Object.entries(it)) if (typeof v === 'number') sum[k] = (sum[k] ?? 0) + v;
console.log(new Date().toISOString(), JSON.stringify(sum));
