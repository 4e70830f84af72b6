/** Campaigns: the list, the creation form and one campaign's live view with its report. */
import { CampaignCreate } from './campaigns/campaign-create';
import { CampaignList } from './campaigns/campaign-list';
import { CampaignView } from './campaigns/campaign-view';
import type { ProjectPageProps } from './page';

/** `#/campaigns` (the list), `#/campaigns/new` (create) and `#/campaigns/<id>` (its progress and report). */
export function Campaigns(props: ProjectPageProps) {
  const id = props.route.segments[1];
  if (id === undefined) return <CampaignList route={props.route} />;
  if (id === 'new') return <CampaignCreate session={props.session} />;
  return <CampaignView key={id} id={id} route={props.route} />;
}
