/** The errors of a route that reads a lead by the email in its path. */
export const READ_BY_EMAIL_ERRORS = { 400: 'The path does not hold a valid email', 404: 'No lead with this email' };

/** The 409 of a rewrite of a lead's data: each attempt, conditional on the lead's version, lost to another request. */
const CHANGED_CONCURRENTLY = 'The lead kept changing under concurrent requests; retry (`CONFLICT`)';

/** The errors of a route that changes the tags of a lead named by email. */
export const TAG_ERRORS = {
  400: 'Invalid body (the first problem, part 7), the path does not hold a valid email, or the tags would take the lead over a per-lead limit',
  404: 'No lead with this email',
  409: CHANGED_CONCURRENTLY,
};

/** The errors of a route that merges attributes into a lead named by email. */
export const ATTRIBUTE_ERRORS = {
  400: 'Invalid body (the first problem, part 7), the path does not hold a valid email, or the merged data over a per-lead limit',
  404: 'No lead with this email',
  409: CHANGED_CONCURRENTLY,
};
