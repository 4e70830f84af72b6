/** Ids the route examples share. */
export const EXAMPLE_LEAD_ID = '6c1f2d8e-3b4a-4c5d-9e8f-7a6b5c4d3e2f';
export const EXAMPLE_SEGMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
