import { Controller, Get, Header, Inject, Req, UseFilters } from '@nestjs/common';
import { EventSourcingExceptionFilter } from '../event-sourcing-exception.filter.js';
import { EVENT_SOURCING_HTTP_OPTIONS, type EventSourcingHttpOptions } from '../http-options.js';
import { incomingMessageOf, type HttpRequest } from '../http-request.js';
import { CONSOLE_SCRIPT } from './assets/console-script.js';
import { CONSOLE_STYLE } from './assets/console-style.js';
import { consolePage } from './assets/console-page.js';
import { consolePath } from './console-path.js';

/**
 * The console's static shell: the page, its script and its style sheet. Unguarded, because it holds
 * no data: the script asks the operator for the admin token and sends it with every call to the
 * guarded JSON routes. Script and style are files of their own, as the framework's CSP allows no
 * inline script or style.
 */
@Controller()
@UseFilters(EventSourcingExceptionFilter)
export class ConsoleShellController {
  constructor(@Inject(EVENT_SOURCING_HTTP_OPTIONS) private readonly options: EventSourcingHttpOptions) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  page(@Req() request: HttpRequest): string {
    const base = mountedAt(request);
    // The path as the request reached it carries the global prefix; the dead-letter routes share it.
    const configured = consolePath(this.options)!;
    const prefix = base.toLowerCase().endsWith(configured.toLowerCase()) ? base.slice(0, base.length - configured.length) : '';
    return consolePage({ base, deadLetters: `${prefix}/dead-letters` });
  }

  @Get('console.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  script(): string {
    return CONSOLE_SCRIPT;
  }

  @Get('console.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  style(): string {
    return CONSOLE_STYLE;
  }
}

/** The page's own path, without query or trailing slash: its links are built on it. */
function mountedAt(request: HttpRequest): string {
  const url = (request as { originalUrl?: string }).originalUrl ?? incomingMessageOf(request).url ?? '/';
  const end = url.search(/[?#]/);
  return (end < 0 ? url : url.slice(0, end)).replace(/\/+$/, '');
}
