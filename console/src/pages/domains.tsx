/** PLACEHOLDER: replaced by the page's own module. */
import { PageHeader } from '../components/ui';
import type { ProjectPageProps } from './page';

export function Domains(_props: ProjectPageProps) {
  return <PageHeader title="Domains" />;
}
