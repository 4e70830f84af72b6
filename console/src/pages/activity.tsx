/** Activity: the list of mails (`#/activity`) and one mail's detail (`#/activity/<id>`). */
import { ActivityDetail } from './activity/detail';
import { ActivityList } from './activity/list';
import type { ProjectPageProps } from './page';

/** The Activity page: the list, or a mail's detail when the route names one. */
export function Activity({ route, session }: ProjectPageProps) {
  const id = route.segments[1];
  return id ? <ActivityDetail id={id} /> : <ActivityList route={route} session={session} />;
}
