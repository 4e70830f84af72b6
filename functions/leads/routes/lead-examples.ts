/** The segment id the route examples share. */
export const EXAMPLE_SEGMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
