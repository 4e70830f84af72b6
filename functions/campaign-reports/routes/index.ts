import { groupRoutes } from '../../../shared/platform/http/route';
import { listLeftOut } from './list-left-out';
import { listRecipientOutcomes } from './list-recipient-outcomes';
import { showExport } from './show-export';
import { startExport } from './start-export';

/** Endpoint group `campaign-reports`: a campaign's outcomes per recipient, the recipients left out, and CSV exports. */
export const campaignReportsRoutes = groupRoutes('campaign-reports', [listRecipientOutcomes, listLeftOut, startExport, showExport]);
