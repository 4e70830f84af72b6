/**
 * Audience: leads (`#/audience`, `#/audience/leads`), a lead (`#/audience/leads/<id>`), segments
 * (`#/audience/segments`) and imports (`#/audience/imports`, `#/audience/imports/<id>`).
 */
import { PageHeader } from '../../components/ui';
import { href } from '../../lib/router';
import type { ProjectPageProps } from '../page';
import { ImportView, Imports } from './imports';
import { LeadDetail } from './lead-detail';
import { Leads } from './leads';
import { Segments } from './segments';

const TABS = [
  { view: 'leads', label: 'Leads' },
  { view: 'segments', label: 'Segments' },
  { view: 'imports', label: 'Imports' },
] as const;

/** The Audience page: the sub-view its route names. */
export function Audience({ route, session }: ProjectPageProps) {
  const view = route.segments[1] ?? 'leads';
  const id = route.segments[2];
  return (
    <>
      <PageHeader title="Audience" subtitle={session.mode === 'test' ? 'Leads and segments are shared by the live and test keys of a project.' : undefined} />
      <nav class="subnav" aria-label="Audience">
        {TABS.map((t) => (
          <a key={t.view} href={href(['audience', t.view])} aria-current={view === t.view ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      {view === 'segments' ? (
        <Segments />
      ) : view === 'imports' ? (
        id ? <ImportView id={id} /> : <Imports />
      ) : id ? (
        <LeadDetail key={id} id={id} />
      ) : (
        <Leads route={route} />
      )}
    </>
  );
}
