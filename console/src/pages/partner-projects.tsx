/** PLACEHOLDER: replaced by the page's own module. */
import { PageHeader } from '../components/ui';
import type { PartnerPageProps } from './page';

export function PartnerProjects(_props: PartnerPageProps) {
  return <PageHeader title="PartnerProjects" />;
}
