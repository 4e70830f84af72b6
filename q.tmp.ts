import { SQSClient, ListQueuesCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
(async () => {
  for (const port of process.argv.slice(2)) {
    try {
      const sqs = new SQSClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
      const r = await sqs.send(new ListQueuesCommand({}));
      for (const u of r.QueueUrls ?? []) {
        if (!/ses-events|campaign/.test(u)) continue;
        const a = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: u, AttributeNames: ['All'] }));
        console.log(u, a.Attributes?.ApproximateNumberOfMessages, a.Attributes?.ApproximateNumberOfMessagesNotVisible);
      }
      console.log('port', port);
    } catch (e) {}
  }
})();
