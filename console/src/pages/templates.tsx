/** Templates: the list, and the editor (create or edit) with a live preview through the API's dry run. */
import { TemplateEditor } from './templates/template-editor';
import { TemplateList } from './templates/template-list';
import type { ProjectPageProps } from './page';

/** `#/templates` (the list), `#/templates/new` (create) and `#/templates/<id>` (edit). */
export function Templates(props: ProjectPageProps) {
  const id = props.route.segments[1];
  if (id === undefined) return <TemplateList route={props.route} />;
  return <TemplateEditor key={id} id={id === 'new' ? undefined : id} />;
}
