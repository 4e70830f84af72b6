/** The partner's Projects page: its views live in pages/partner-projects/. */
export { PartnerProjects } from './partner-projects/partner-projects';
