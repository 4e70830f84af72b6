/** Realistic answers of the report routes, for the docs (checked against their schemas in CI). */

export const CAMPAIGN_ID = '5b0e7c2d-8f1a-4c3e-9d6b-2a7f4e1c0b93';
const EXPORT_ID = 'e2f3a4b5-6c7d-4e8f-9a0b-1c2d3e4f5a6b';

/** 404 of the report routes. */
export const reportNotFound = { error: 'NOT_FOUND' };

/** An export just started. */
export const runningExport = {
  id: EXPORT_ID,
  campaign_id: CAMPAIGN_ID,
  status: 'running',
  rows: 0,
  parts: 0,
  created_at: '2026-11-26T14:00:00.000Z',
  completed_at: null,
  error: null,
  download_url: null,
};

/** A finished export, with its download link. */
export const completedExport = {
  ...runningExport,
  status: 'completed',
  rows: 118342,
  parts: 2,
  completed_at: '2026-11-26T14:03:12.000Z',
  download_url: `https://payloads.s3.eu-west-1.amazonaws.com/exports/${CAMPAIGN_ID}/${EXPORT_ID}.csv?X-Amz-Expires=3600&X-Amz-Signature=9f2c1e`,
};
