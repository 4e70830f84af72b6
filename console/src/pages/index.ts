/** The console's pages, in the order of the navigation: a project key's, and a partner key's. */
import type { ComponentType } from 'preact';
import { Activity } from './activity';
import { Audience } from './audience';
import { Automations } from './automations';
import { Campaigns } from './campaigns';
import { Domains } from './domains';
import { Overview } from './overview';
import type { PartnerPageProps, ProjectPageProps } from './page';
import { PartnerProjects } from './partner-projects';
import { SendTest } from './send-test';
import { Suppressions } from './suppressions';
import { Templates } from './templates';
import { Webhooks } from './webhooks';

/** A page: the route segment that opens it, its name in the navigation, its component. */
export interface PageEntry<P> {
  readonly path: string;
  readonly label: string;
  readonly component: ComponentType<P>;
}

export const projectPages: readonly PageEntry<ProjectPageProps>[] = [
  { path: 'overview', label: 'Overview', component: Overview },
  { path: 'activity', label: 'Activity', component: Activity },
  { path: 'domains', label: 'Domains', component: Domains },
  { path: 'templates', label: 'Templates', component: Templates },
  { path: 'campaigns', label: 'Campaigns', component: Campaigns },
  { path: 'automations', label: 'Automations', component: Automations },
  { path: 'audience', label: 'Audience', component: Audience },
  { path: 'suppressions', label: 'Suppressions', component: Suppressions },
  { path: 'webhooks', label: 'Webhooks', component: Webhooks },
  { path: 'send', label: 'Send a test mail', component: SendTest },
];

export const partnerPages: readonly PageEntry<PartnerPageProps>[] = [{ path: 'projects', label: 'Projects', component: PartnerProjects }];
