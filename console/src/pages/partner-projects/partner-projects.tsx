/** Projects (a partner key's console): the organization's quota and projects (`#/projects`), and one project (`#/projects/<id>`). */
import { Table, type Column } from '../../components/table';
import { Badge, Card, Details, ErrorNote, Loading, PageHeader } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatCount, formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import type { PartnerPageProps } from '../page';
import { ProjectView } from './project-view';

type Summary = Schemas['PartnerProjectSummary'];

const columns: readonly Column<Summary>[] = [
  { title: 'Project', cell: (p) => <a href={href(['projects', p.id])}>{p.name}</a> },
  { title: 'Status', cell: (p) => <Badge value={p.disabled_at ? 'disabled' : 'active'} /> },
  { title: 'Slug', cell: (p) => <code>{p.slug}</code>, wide: true },
  { title: 'Created', cell: (p) => formatInstant(p.created_at), wide: true },
];

/** The Projects page: the list, or the project the route names. */
export function PartnerProjects({ route }: PartnerPageProps) {
  const id = route.segments[1];
  return id ? <ProjectView id={id} /> : <ProjectList />;
}

/** The organization (its quota) and its projects, oldest first. */
function ProjectList() {
  const whoami = useLoad(() => unwrap(api.GET('/v1/partner/whoami')), []);
  const projects = useLoad(() => unwrap(api.GET('/v1/partner/projects')), []);
  const quota = whoami.data?.partner;
  return (
    <>
      <PageHeader title="Projects" subtitle={whoami.data ? whoami.data.organization.name : undefined} />
      <ErrorNote error={whoami.error} title="The organization could not be read" />
      {quota ? (
        <Card title="Quota">
          <Details
            items={[
              ['Active projects', formatCount(quota.active_projects)],
              ['Most projects', quota.max_projects === null ? 'Unlimited' : formatCount(quota.max_projects)],
              ['Projects left', quota.remaining_projects === null ? 'Unlimited' : formatCount(quota.remaining_projects)],
              ['Partner key', quota.key_id ? <code>{quota.key_id}</code> : '—'],
            ]}
          />
          <p class="hint">
            The organization's own project is not counted
            {whoami.data?.organization.root_project_id ? (
              <>
                {' '}
                (<a href={href(['projects', whoami.data.organization.root_project_id])}>open it</a>)
              </>
            ) : null}
            .
          </p>
        </Card>
      ) : null}
      <Card title="Client projects">
        <ErrorNote error={projects.error} />
        {projects.loading && !projects.data ? <Loading label="Loading projects…" /> : null}
        {projects.data ? (
          <Table
            caption="Client projects"
            columns={columns}
            rows={projects.data.projects}
            rowKey={(p) => p.id}
            empty="No projects yet: create them with POST /v1/partner/projects."
          />
        ) : null}
      </Card>
    </>
  );
}
