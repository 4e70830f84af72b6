/** What every page of the console receives. */
import type { Route } from '../lib/router';
import type { PartnerSession, ProjectSession } from '../lib/session';

/** A page of a project's console. */
export interface ProjectPageProps {
  readonly route: Route;
  readonly session: ProjectSession;
}

/** A page of a partner's console. */
export interface PartnerPageProps {
  readonly route: Route;
  readonly session: PartnerSession;
}
