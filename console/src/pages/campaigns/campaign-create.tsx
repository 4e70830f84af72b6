/** Creating a campaign: its template, sender, audience (a segment), start and pacing, as `POST /v1/campaigns` takes them. */
import { useState } from 'preact/hooks';
import { Button, Card, ErrorNote, Field, Loading, Notice, PageHeader } from '../../components/ui';
import { api, ApiError, unwrap, type paths, type Schemas } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { href, navigate } from '../../lib/router';
import type { ProjectSession } from '../../lib/session';
import { useLoad } from '../../lib/use-load';
import { TemplatePicker, type PickedTemplate } from './template-picker';

type Pacing = 'once' | 'spread' | 'batches';
type CampaignBody = paths['/v1/campaigns']['post']['requestBody']['content']['application/json'];

/** A segment's label: its name and member count (a dynamic segment's from its last evaluation). */
function segmentLabel(s: Schemas['Segment']): string {
  const members = `${formatCount(s.member_count)} member${s.member_count === 1 ? '' : 's'}`;
  return `${s.name} · ${members}${s.type === 'dynamic' ? ' (dynamic)' : ''}`;
}

/** The form; a created campaign opens in its own view. */
export function CampaignCreate(props: { session: ProjectSession }) {
  const senders = useLoad(() => unwrap(api.GET('/domains/senders')).then((a) => a.data), []);
  // A project has at most 500 segments, and the API answers them all at once (not paged).
  const segments = useLoad(() => unwrap(api.GET('/v1/segments')).then((a) => a.data), []);
  const [name, setName] = useState('');
  const [template, setTemplate] = useState<PickedTemplate>();
  const [subject, setSubject] = useState('');
  const [senderId, setSenderId] = useState('');
  const [segmentId, setSegmentId] = useState('');
  const [when, setWhen] = useState<'now' | 'at'>('now');
  const [at, setAt] = useState('');
  const [pacing, setPacing] = useState<Pacing>('once');
  const [spreadHours, setSpreadHours] = useState('6');
  const [batchSize, setBatchSize] = useState('1000');
  const [batchHours, setBatchHours] = useState('24');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [duplicate, setDuplicate] = useState<string>();

  const senderList = senders.data ?? [];
  const segmentList = segments.data ?? [];
  const chosenSender = senderList.find((s) => s.id === senderId);
  const chosenSegment = segmentList.find((s) => s.id === segmentId);

  const bodyOf = (confirmDuplicate: boolean): CampaignBody | string => {
    if (!template) return 'Choose a template.';
    if (!senderId) return 'Choose a sender.';
    if (!segmentId) return 'Choose a segment as the audience.';
    const body: CampaignBody = { name: name.trim(), templateId: template.id, senderProfileId: senderId, segmentId };
    if (subject.trim()) body.subject = subject.trim();
    if (when === 'at') {
      const instant = new Date(at);
      if (!at || Number.isNaN(instant.getTime())) return 'Give the start’s date and time.';
      body.scheduledFor = instant.toISOString();
    }
    if (pacing === 'spread') body.sendOverHours = Number(spreadHours);
    if (pacing === 'batches') {
      body.batchMode = true;
      body.batchSize = Number(batchSize);
      body.batchIntervalHours = Number(batchHours);
    }
    if (confirmDuplicate) body.confirmDuplicate = true;
    return body;
  };

  const create = async (confirmDuplicate: boolean) => {
    setError(undefined);
    setDuplicate(undefined);
    const body = bodyOf(confirmDuplicate);
    if (typeof body === 'string') {
      setError(new Error(body));
      return;
    }
    setBusy(true);
    try {
      const created = await unwrap(api.POST('/v1/campaigns', { body }));
      navigate(href(['campaigns', created.campaign.id]));
    } catch (e) {
      const body409 = e instanceof ApiError && e.status === 409 ? (e.body as { error?: string; message?: string }) : undefined;
      if (body409?.error === 'duplicate_campaign') setDuplicate(body409.message ?? 'A campaign like this one was created recently.');
      else setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="New campaign" subtitle={<a href={href(['campaigns'])}>All campaigns</a>} />
      {props.session.mode === 'test' ? <Notice kind="warning">Signed in with a test key: the campaign is a test campaign, and its mail reaches no mailbox.</Notice> : null}
      <form
        class="card campaign-form"
        aria-label="New campaign"
        onSubmit={(e) => {
          e.preventDefault();
          void create(false);
        }}
      >
        <Field label="Name" id="campaign-name">
          <input id="campaign-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <TemplatePicker picked={template} onPick={setTemplate} />
        <Field label="Subject" id="campaign-subject" hint="Leave empty to use the template's subject.">
          <input id="campaign-subject" maxLength={998} value={subject} aria-describedby="campaign-subject-hint" onInput={(e) => setSubject(e.currentTarget.value)} />
        </Field>
        <Field label="Sender" id="campaign-sender" hint={chosenSender && !chosenSender.can_send ? 'This sender cannot send yet: verify its domain first.' : 'The project\'s senders (Domains registers more).'}>
          <select id="campaign-sender" required value={senderId} aria-describedby="campaign-sender-hint" onChange={(e) => setSenderId(e.currentTarget.value)}>
            <option value="">Choose a sender</option>
            {senderList.map((s) => (
              <option key={s.id} value={s.id}>
                {s.from_name ? `${s.from_name} <${s.from_email}>` : s.from_email}
                {s.can_send ? '' : ' (cannot send yet)'}
              </option>
            ))}
          </select>
        </Field>
        <ErrorNote error={senders.error} title="Senders" />
        <Field
          label="Audience: a segment"
          id="campaign-segment"
          hint={
            chosenSegment ? (
              <span role="status">
                {formatCount(chosenSegment.member_count)} recipient{chosenSegment.member_count === 1 ? '' : 's'} now
                {chosenSegment.type === 'dynamic' ? ' (at its last evaluation; frozen when the campaign starts)' : ''}.
              </span>
            ) : (
              <>
                Segments are made under <a href={href(['audience'])}>Audience</a>.
              </>
            )
          }
        >
          <select id="campaign-segment" required value={segmentId} aria-describedby="campaign-segment-hint" onChange={(e) => setSegmentId(e.currentTarget.value)}>
            <option value="">Choose a segment</option>
            {segmentList.map((s) => (
              <option key={s.id} value={s.id}>
                {segmentLabel(s)}
              </option>
            ))}
          </select>
        </Field>
        <ErrorNote error={segments.error} title="Segments" />
        {senders.loading || segments.loading ? <Loading label="Loading senders and segments…" /> : null}

        <fieldset class="choices">
          <legend>Start</legend>
          <label>
            <input type="radio" name="when" checked={when === 'now'} onChange={() => setWhen('now')} /> Now
          </label>
          <label>
            <input type="radio" name="when" checked={when === 'at'} onChange={() => setWhen('at')} /> At a time
          </label>
          {when === 'at' ? (
            <Field label="Start at (your local time)" id="campaign-at">
              <input id="campaign-at" type="datetime-local" required value={at} onInput={(e) => setAt(e.currentTarget.value)} />
            </Field>
          ) : null}
        </fieldset>

        <fieldset class="choices">
          <legend>Pacing</legend>
          <label>
            <input type="radio" name="pacing" checked={pacing === 'once'} onChange={() => setPacing('once')} /> As fast as the sending rate allows
          </label>
          <label>
            <input type="radio" name="pacing" checked={pacing === 'spread'} onChange={() => setPacing('spread')} /> Spread evenly over some hours
          </label>
          <label>
            <input type="radio" name="pacing" checked={pacing === 'batches'} onChange={() => setPacing('batches')} /> In batches
          </label>
          {pacing === 'spread' ? (
            <Field label="Spread over (hours)" id="campaign-spread" hint="From 0.25 to 720.">
              <input id="campaign-spread" type="number" min="0.25" max="720" step="0.25" required value={spreadHours} aria-describedby="campaign-spread-hint" onInput={(e) => setSpreadHours(e.currentTarget.value)} />
            </Field>
          ) : null}
          {pacing === 'batches' ? (
            <div class="inline-fields">
              <Field label="Batch size (recipients)" id="campaign-batch-size">
                <input id="campaign-batch-size" type="number" min="1" step="1" required value={batchSize} onInput={(e) => setBatchSize(e.currentTarget.value)} />
              </Field>
              <Field label="Hours between batches" id="campaign-batch-hours" hint="From 0.25 to 720.">
                <input id="campaign-batch-hours" type="number" min="0.25" max="720" step="0.25" required value={batchHours} aria-describedby="campaign-batch-hours-hint" onInput={(e) => setBatchHours(e.currentTarget.value)} />
              </Field>
            </div>
          ) : null}
        </fieldset>

        <ErrorNote error={error} title="Not created" />
        {duplicate ? (
          <Card title="This looks like a duplicate" class="duplicate">
            <p>{duplicate}</p>
            <Button variant="primary" busy={busy} onClick={() => void create(true)}>
              Create it anyway
            </Button>
          </Card>
        ) : null}
        <Button type="submit" variant="primary" busy={busy}>
          Create campaign
        </Button>
      </form>
    </>
  );
}
