import { groupRoutes } from '../../../shared/platform/http/route';
import { consoleScript, consoleStylesheet } from './console-asset';
import { consolePage } from './console-page';
import { createSession } from './create-session';
import { endSession } from './end-session';
import { readConsoleSession } from './read-session';

/** Endpoint group `console`: the console's page and files, and its sessions. */
export const consoleRoutes = groupRoutes('console', [consolePage, consoleScript, consoleStylesheet, createSession, readConsoleSession, endSession]);
