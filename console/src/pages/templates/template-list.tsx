/** The project's templates, one page of the API at a time, searchable by name. */
import { useState } from 'preact/hooks';
import { Pager, Table } from '../../components/table';
import { ErrorNote, Field, Loading, PageHeader } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, replaceQuery, type Route } from '../../lib/router';
import { useLoad } from '../../lib/use-load';

const PER_PAGE = '25';

/** The list: name search and pages live in the hash, so a reload or a shared link keeps them. */
export function TemplateList(props: { route: Route }) {
  const search = props.route.query.get('search') ?? '';
  const page = Math.max(1, Number(props.route.query.get('page') ?? '1') || 1);
  const cursor = props.route.query.get('cursor') ?? undefined;
  const [draft, setDraft] = useState(search);
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/templates', {
          // The API refuses `page` together with `cursor`: a deep page goes by cursor alone.
          params: { query: cursor ? { cursor, per_page: PER_PAGE, search: search || undefined } : { page: String(page), per_page: PER_PAGE, search: search || undefined } },
        }),
      ),
    [search, page, cursor],
  );
  const onSearch = (event: Event) => {
    event.preventDefault();
    replaceQuery({ search: draft.trim() || undefined });
  };
  const rows: readonly Schemas['TemplateListEntry'][] = list.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Templates"
        subtitle="Stored templates, most recently updated first."
        actions={
          <a class="btn primary" href={href(['templates', 'new'])}>
            New template
          </a>
        }
      />
      <form class="filters compact" role="search" aria-label="Templates" onSubmit={onSearch}>
        <Field label="Name contains" id="template-search">
          <input id="template-search" type="search" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        </Field>
        <button type="submit" class="btn">
          Search
        </button>
      </form>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data ? (
        <>
          <Table
            caption="Templates"
            rows={rows}
            rowKey={(t) => t.id}
            empty={search ? `No template's name contains “${search}”.` : 'No template yet: create one.'}
            columns={[
              { title: 'Name', cell: (t) => <a href={href(['templates', t.id])}>{t.name}</a> },
              { title: 'Subject', cell: (t) => t.subject ?? <span class="muted">none</span> },
              { title: 'Id', wide: true, cell: (t) => <code>{t.internal_id}</code> },
              { title: 'Version', wide: true, cell: (t) => t.version },
              { title: 'Updated', wide: true, cell: (t) => formatInstant(t.updated_at) },
            ]}
          />
          <Pager
            label="Template pages"
            info={{ ...list.data.pagination, page }}
            shown={rows.length}
            onPage={(next, nextCursor) => replaceQuery({ search: search || undefined, page: String(next), cursor: next > page ? nextCursor : undefined })}
          />
        </>
      ) : null}
    </>
  );
}
