/** One campaign: its live progress (polled while it runs), pause, resume and cancel, its metrics, report and CSV export. */
import { useCallback, useState } from 'preact/hooks';
import { Badge, Button, Card, Details, ErrorNote, Loading, Notice, PageHeader } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatCount, formatInstant } from '../../lib/format';
import { href, type Route } from '../../lib/router';
import { useLoad, usePoll } from '../../lib/use-load';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CampaignExport } from './campaign-export';
import { CampaignReport } from './campaign-report';

/** States in which the campaign still moves on its own: the view polls them. */
const MOVING: readonly Schemas['CampaignStatus'][] = ['initializing', 'pending', 'processing', 'rate_limited'];
const PAUSABLE: readonly Schemas['CampaignStatus'][] = ['pending', 'processing', 'rate_limited'];
const FINAL: readonly Schemas['CampaignStatus'][] = ['completed', 'failed', 'cancelled'];
const POLL_MS = 2000;

/** The view of campaign `id`. */
export function CampaignView(props: { id: string; route: Route }) {
  const { id } = props;
  const read = useLoad(() => unwrap(api.GET('/v1/campaigns/{id}', { params: { path: { id } } })), [id]);
  const [acting, setActing] = useState<string>();
  const [actionError, setActionError] = useState<Error>();
  const [done, setDone] = useState<string>();
  const [confirmCancel, setConfirmCancel] = useState(false);

  const campaign = read.data?.campaign;
  const status = campaign?.status;
  const tick = useCallback(() => read.reload(), [read.reload]);
  usePoll(status !== undefined && MOVING.includes(status), POLL_MS, tick);

  const act = async (action: 'pause' | 'resume' | 'cancel') => {
    setActing(action);
    setActionError(undefined);
    setDone(undefined);
    try {
      const path = { params: { path: { id } } };
      const answer =
        action === 'pause'
          ? await unwrap(api.POST('/v1/campaigns/{id}/pause', path))
          : action === 'resume'
            ? await unwrap(api.POST('/v1/campaigns/{id}/resume', path))
            : await unwrap(api.POST('/v1/campaigns/{id}/cancel', path));
      setDone(`The campaign is now ${answer.status.replace(/_/g, ' ')}.`);
      read.reload();
    } catch (e) {
      setActionError(e as Error);
    } finally {
      setActing(undefined);
      setConfirmCancel(false);
    }
  };

  if (read.error && !campaign) {
    return (
      <>
        <PageHeader title="Campaign" subtitle={<a href={href(['campaigns'])}>All campaigns</a>} />
        <ErrorNote error={read.error} />
      </>
    );
  }
  if (!campaign || !read.data) return <Loading />;
  const metrics = read.data.metrics;
  const handled = campaign.emails_sent + campaign.emails_failed;
  const total = campaign.total_recipients;
  const moving = MOVING.includes(campaign.status);

  return (
    <>
      <PageHeader
        title={campaign.name}
        subtitle={
          <>
            <a href={href(['campaigns'])}>All campaigns</a> · subject “{campaign.subject}”
          </>
        }
        actions={
          <>
            {PAUSABLE.includes(campaign.status) ? (
              <Button busy={acting === 'pause'} onClick={() => void act('pause')}>
                Pause
              </Button>
            ) : null}
            {campaign.status === 'paused' ? (
              <Button variant="primary" busy={acting === 'resume'} onClick={() => void act('resume')}>
                Resume
              </Button>
            ) : null}
            {!FINAL.includes(campaign.status) ? (
              <Button variant="danger" onClick={() => setConfirmCancel(true)}>
                Cancel campaign
              </Button>
            ) : null}
          </>
        }
      />
      <ErrorNote error={read.error} title="The campaign could not be read again" />
      <ErrorNote error={actionError} title="Refused" />
      {done ? <Notice kind="success">{done}</Notice> : null}

      <Card title="Progress" class="progress-card">
        <div class="progress-line" role="status" aria-live="polite">
          <Badge value={campaign.status} />
          <span data-testid="campaign-progress">
            {formatCount(campaign.emails_sent)} sent, {formatCount(campaign.emails_failed)} failed, of {formatCount(total)}
            {campaign.status === 'initializing' ? ' (counting the audience)' : ''}
          </span>
          {moving ? <span class="muted small-text">updates every {POLL_MS / 1000} s</span> : null}
        </div>
        <progress class="progress" max={Math.max(total, 1)} value={Math.min(handled, Math.max(total, 1))} aria-label={`Sent or failed: ${handled} of ${total}`} />
        <Details
          items={[
            ['Created', formatInstant(campaign.created_at)],
            ['Scheduled for', formatInstant(campaign.scheduled_for)],
            ['Started', formatInstant(campaign.started_at)],
            ['Completed', formatInstant(campaign.completed_at)],
          ]}
        />
      </Card>

      <Card title="Outcomes">
        <div class="stats-row">
          {(
            [
              ['Sent', metrics.sent],
              ['Delivered', metrics.delivered],
              ['Opened', metrics.opened],
              ['Clicked', metrics.clicked],
              ['Bounced', metrics.bounced],
              ['Complained', metrics.complained],
            ] as const
          ).map(([label, value]) => (
            <div key={label} class="stat-box">
              <div class="stat">{formatCount(value)}</div>
              <div class="stat-label">{label}</div>
            </div>
          ))}
        </div>
        <p class="hint">Opened counts a person's opens only; bounced counts permanent bounces.</p>
      </Card>

      <CampaignReport id={id} progress={handled} status={campaign.status} />
      <CampaignExport id={id} />

      <ConfirmDialog
        open={confirmCancel}
        title="Cancel this campaign?"
        confirmLabel="Cancel campaign"
        cancelLabel="Keep it running"
        busy={acting === 'cancel'}
        onConfirm={() => void act('cancel')}
        onCancel={() => setConfirmCancel(false)}
      >
        <p>No more of its mail is released, and its mail not sent yet is cancelled. A cancelled campaign cannot be resumed.</p>
      </ConfirmDialog>
    </>
  );
}
