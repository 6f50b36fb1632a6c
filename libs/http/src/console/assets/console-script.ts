import { DEAD_LETTERS_PANEL } from './script/dead-letters-panel.js';
import { EVENT_TYPES_PANEL } from './script/event-types-panel.js';
import { PAGE_BASICS } from './script/page-basics.js';
import { PROJECTIONS_PANEL } from './script/projections-panel.js';
import { SIGN_IN } from './script/sign-in.js';
import { STREAMS_PANEL } from './script/streams-panel.js';
import { SUBSCRIBERS_PANEL } from './script/subscribers-panel.js';

/**
 * The console page's script, served as /console.js (the CSP allows no inline script): plain browser
 * JavaScript in one function scope, its parts one per panel. Kept as strings, because the packages
 * ship built modules only, no asset files. The parts' function declarations see each other; the
 * page opens itself last, when this tab already holds a token.
 */
export const CONSOLE_SCRIPT = [
  String.raw`// The operator console's script: plain DOM, no framework, no build step. It holds no data of its
// own: everything comes from the guarded JSON routes, with the admin token from this tab's
// sessionStorage. Data is written with textContent only, never as markup.
(function () {
  'use strict';
`,
  PAGE_BASICS,
  SIGN_IN,
  SUBSCRIBERS_PANEL,
  DEAD_LETTERS_PANEL,
  STREAMS_PANEL,
  EVENT_TYPES_PANEL,
  PROJECTIONS_PANEL,
  '  if (token()) opened();\n})();\n',
].join('\n');
