/** PLACEHOLDER: replaced by the page's own module. */
import { PageHeader } from '../components/ui';
import type { ProjectPageProps } from './page';

export function Suppressions(_props: ProjectPageProps) {
  return <PageHeader title="Suppressions" />;
}
