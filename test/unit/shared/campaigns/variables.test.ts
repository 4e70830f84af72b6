import type { Lead } from '../../../../shared/audience/leads/lead';
import { recipientOf } from '../../../../shared/marketing/campaigns/variables';
import { waveId } from '../../../../shared/marketing/campaigns/waves';
import { batchActivityId, batchOfActivity } from '../../../../shared/mail-pipeline/batches/batch-ids';

const lead = (data: Record<string, unknown>): Lead => ({
  id: 'lead-1',
  project_id: 'p1',
  email: 'ada@example.com',
  data,
  storeplatform_customer_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  version: 1,
});

describe('a lead as a campaign recipient (variableConfig)', () => {
  test('the lead data are the template variables, tags left out, with email and name; no metadata on the record', () => {
    expect(recipientOf(lead({ name: 'Ada', city: 'London', _tags: ['vip'] }), undefined)).toEqual({
      email: 'ada@example.com',
      name: 'Ada',
      data: { name: 'Ada', city: 'London', email: 'ada@example.com' },
    });
  });

  test('mappings take a variable from a lead attribute; defaults fill what is still empty', () => {
    const config = { mappings: { first: 'first_name', contact: 'email' }, defaults: { first: 'there', plan: 'free', city: 'Paris' } };
    const recipient = recipientOf(lead({ first_name: 'Ada', last_name: 'Lovelace', city: '' }), config);
    expect(recipient.data).toMatchObject({ first: 'Ada', contact: 'ada@example.com', plan: 'free', city: 'Paris' });
    expect(recipient.name).toBe('Ada Lovelace');
    expect(recipientOf(lead({}), config).data).toMatchObject({ first: 'there' });
  });
});

describe('wave ids', () => {
  test('derive from the campaign and the wave number, so a replayed step writes the same wave and activity ids', () => {
    expect(waveId('c1', 0)).toBe(waveId('c1', 0));
    expect(waveId('c1', 1)).not.toBe(waveId('c1', 0));
    expect(waveId('c2', 0)).not.toBe(waveId('c1', 0));
  });

  test('are batch ids: every recipient activity id names its wave', () => {
    const id = waveId('c1', 3);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{8}0000$/);
    expect(batchOfActivity(batchActivityId(id, 42))).toEqual({ batchId: id, index: 42 });
  });
});
