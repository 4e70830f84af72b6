/** Domains: the project's sending domains (`#/domains`) and one domain's view (`#/domains/<domain>`). */
import type { ProjectPageProps } from './page';
import { DomainList } from './domains/domain-list';
import { DomainView } from './domains/domain-view';

/** The Domains page: the list and the register form, or one domain when the route names it. */
export function Domains(props: ProjectPageProps) {
  const domain = props.route.segments[1];
  return domain ? <DomainView domain={domain} session={props.session} registered={props.route.query.get('registered')} /> : <DomainList route={props.route} session={props.session} />;
}
