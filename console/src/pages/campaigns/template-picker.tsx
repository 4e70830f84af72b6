/** Picks a template for a campaign: a name search and one small page of the templates list at a time. */
import { useState } from 'preact/hooks';
import { Pager } from '../../components/table';
import { ErrorNote, Loading } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { useLoad } from '../../lib/use-load';

const PER_PAGE = '8';

/** The chosen template (id and what to show of it). */
export interface PickedTemplate {
  readonly id: string;
  readonly name: string;
  readonly subject: string | null;
}

/** A radio group of one page of templates matching the search; `onPick` receives the choice. */
export function TemplatePicker(props: { picked: PickedTemplate | undefined; onPick: (t: PickedTemplate) => void }) {
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState<{ page: number; cursor?: string }>({ page: 1 });
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/templates', {
          params: { query: { per_page: PER_PAGE, search: search || undefined, ...(page.cursor ? { cursor: page.cursor } : { page: String(page.page) }) } },
        }),
      ),
    [search, page],
  );
  const rows: readonly Schemas['TemplateListEntry'][] = list.data?.data ?? [];
  const find = () => {
    setSearch(draft.trim());
    setPage({ page: 1 });
  };
  return (
    <fieldset class="picker">
      <legend>Template</legend>
      <div class="inline">
        <label class="visually-hidden" for="template-find">
          Find a template by name
        </label>
        <input
          id="template-find"
          type="search"
          placeholder="Find by name"
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter searches instead of submitting the campaign form.
            if (e.key === 'Enter') {
              e.preventDefault();
              find();
            }
          }}
        />
        <button type="button" class="btn" onClick={find}>
          Find
        </button>
      </div>
      {props.picked ? (
        <p class="hint" role="status">
          Chosen: <strong>{props.picked.name}</strong>
          {props.picked.subject ? ` (subject “${props.picked.subject}”)` : ' (no subject: give one below)'}
        </p>
      ) : (
        <p class="hint">No template chosen yet.</p>
      )}
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading label="Loading templates…" /> : null}
      {list.data && rows.length === 0 ? <p class="muted">{search ? `No template's name contains “${search}”.` : 'No template yet: create one under Templates.'}</p> : null}
      <ul class="choice-list">
        {rows.map((t) => (
          <li key={t.id}>
            <label>
              <input type="radio" name="template" value={t.id} checked={props.picked?.id === t.id} onChange={() => props.onPick({ id: t.id, name: t.name, subject: t.subject })} />
              <span>
                {t.name}
                <span class="muted"> · {t.subject ?? 'no subject'}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {list.data ? <Pager label="Template pages" info={{ ...list.data.pagination, page: page.page }} shown={rows.length} onPage={(p, cursor) => setPage({ page: p, cursor: p > page.page ? cursor : undefined })} /> : null}
    </fieldset>
  );
}
