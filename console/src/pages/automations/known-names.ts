/** The names of the templates and senders an automation's mail steps name, read from the API for the flow's words. */
import { api, unwrap } from '../../lib/api';
import { useLoad } from '../../lib/use-load';
import type { KnownNames, Step } from './automation-words';

/**
 * Reads each template the steps name (at most one call per distinct template; a definition has at
 * most 100 steps) and the project's senders (one list). A template that cannot be read keeps its id
 * alone: the activation checks say whether it exists.
 */
export function useKnownNames(steps: readonly Step[] | undefined): KnownNames {
  const templateIds = [...new Set((steps ?? []).flatMap((s) => (s.type === 'send_email' ? [s.template_id] : [])))].sort();
  const key = templateIds.join(',');
  const templates = useLoad(async () => {
    const named = await Promise.all(
      templateIds.map((id) =>
        unwrap(api.GET('/v1/templates/{id}', { params: { path: { id } } })).then(
          (a) => [id, a.data.name] as const,
          () => undefined,
        ),
      ),
    );
    return new Map(named.filter((n): n is readonly [string, string] => n !== undefined));
  }, [key]);
  const hasMail = templateIds.length > 0;
  const senders = useLoad(
    () => (hasMail ? unwrap(api.GET('/domains/senders')).then((a) => new Map(a.data.map((s) => [s.id, s.from_name ? `${s.from_name} <${s.from_email}>` : s.from_email] as const))) : Promise.resolve(new Map<string, string>())),
    [hasMail],
  );
  return { templates: templates.data, senders: senders.data };
}
