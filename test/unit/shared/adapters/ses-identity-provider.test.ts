import {
  AlreadyExistsException,
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  NotFoundException,
  PutEmailIdentityMailFromAttributesCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { SesIdentityProvider } from '../../../../shared/platform/adapters/ses-identity-provider';

const ses = mockClient(SESv2Client);
const provider = new SesIdentityProvider(new SESv2Client({ region: 'us-east-1' }), 'mailroom-set', 'MailroomStack');
afterEach(() => ses.reset());

const exists = () => new AlreadyExistsException({ message: 'exists', $metadata: {} });
const missing = () => new NotFoundException({ message: 'missing', $metadata: {} });

describe('SesIdentityProvider.ensureDomainIdentity', () => {
  test('creates the identity with Easy DKIM and the configuration set, tagged for this deployment and the project, returning the three tokens', async () => {
    ses.on(CreateEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: ['a', 'b', 'c'], Status: 'PENDING' } });
    await expect(provider.ensureDomainIdentity('example.com', 'p1')).resolves.toEqual({
      dkimTokens: ['a', 'b', 'c'],
      created: true,
      createdBy: { deployment: 'MailroomStack', project: 'p1' },
    });
    expect(ses.commandCalls(CreateEmailIdentityCommand)[0].args[0].input).toEqual({
      EmailIdentity: 'example.com',
      ConfigurationSetName: 'mailroom-set',
      Tags: [
        { Key: 'mailroom:stack', Value: 'MailroomStack' },
        { Key: 'mailroom:project', Value: 'p1' },
      ],
    });
  });

  test('an identity that already exists is reconciled: its tokens and creator tags are read back', async () => {
    ses.on(CreateEmailIdentityCommand).rejects(exists());
    ses.on(GetEmailIdentityCommand).resolves({
      DkimAttributes: { Tokens: ['x', 'y', 'z'] },
      VerifiedForSendingStatus: false,
      Tags: [{ Key: 'mailroom:stack', Value: 'Other' }],
    });
    await expect(provider.ensureDomainIdentity('example.com', 'p1')).resolves.toEqual({ dkimTokens: ['x', 'y', 'z'], created: false, createdBy: { deployment: 'Other', project: undefined } });
  });

  test('other errors are not swallowed', async () => {
    ses.on(CreateEmailIdentityCommand).rejects(new Error('AccessDenied'));
    await expect(provider.ensureDomainIdentity('example.com', 'p1')).rejects.toThrow('AccessDenied');
  });
});

describe('SesIdentityProvider.getIdentity', () => {
  test('maps SES v2 GetEmailIdentity to the identity state', async () => {
    ses.on(GetEmailIdentityCommand).resolves({
      VerifiedForSendingStatus: true,
      VerificationStatus: 'SUCCESS',
      DkimAttributes: { Status: 'PENDING', Tokens: ['a', 'b', 'c'] },
      MailFromAttributes: { MailFromDomain: 'send.example.com', MailFromDomainStatus: 'SUCCESS', BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
    });
    await expect(provider.getIdentity('example.com')).resolves.toEqual({
      verifiedForSending: true,
      verificationStatus: 'SUCCESS',
      dkimStatus: 'PENDING',
      mailFromStatus: 'SUCCESS',
      dkimTokens: ['a', 'b', 'c'],
      createdBy: { deployment: undefined, project: undefined },
    });
  });

  test('no MAIL FROM and no DKIM read as NOT_STARTED', async () => {
    ses.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: false, VerificationStatus: 'PENDING' });
    await expect(provider.getIdentity('a@example.com')).resolves.toMatchObject({ dkimStatus: 'NOT_STARTED', mailFromStatus: 'NOT_STARTED' });
  });

  test('an identity SES does not know is undefined', async () => {
    ses.on(GetEmailIdentityCommand).rejects(missing());
    await expect(provider.getIdentity('gone.example.com')).resolves.toBeUndefined();
  });
});

describe('SesIdentityProvider: MAIL FROM, delete, addresses', () => {
  test('sets the custom MAIL FROM with the default fallback on MX failure', async () => {
    ses.on(PutEmailIdentityMailFromAttributesCommand).resolves({});
    await provider.setMailFrom('example.com', 'send.example.com');
    expect(ses.commandCalls(PutEmailIdentityMailFromAttributesCommand)[0].args[0].input).toEqual({
      EmailIdentity: 'example.com',
      MailFromDomain: 'send.example.com',
      BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
    });
  });

  test('deleting an identity that is already gone is fine', async () => {
    ses.on(DeleteEmailIdentityCommand).rejects(missing());
    await expect(provider.deleteIdentity('example.com')).resolves.toBeUndefined();
  });

  test('an address identity is created once (SES mails the owner); a second create is fine', async () => {
    ses.on(CreateEmailIdentityCommand).resolvesOnce({}).rejects(exists());
    await provider.createAddressIdentity('owner@example.com', 'p1');
    await provider.createAddressIdentity('owner@example.com', 'p1');
    expect(ses.commandCalls(CreateEmailIdentityCommand)).toHaveLength(2);
    expect(ses.commandCalls(CreateEmailIdentityCommand)[0].args[0].input.Tags).toEqual([
      { Key: 'mailroom:stack', Value: 'MailroomStack' },
      { Key: 'mailroom:project', Value: 'p1' },
    ]);
  });
});
