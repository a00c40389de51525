/**
 * WebKit for the visitor flows: Debian's WebKitWebDriver driving WebKitGTK's MiniBrowser over
 * classic W3C WebDriver (plain HTTP, the few commands the flows need). MiniBrowser has no headless
 * mode: without a DISPLAY, an Xvfb server is started on a free display number and stopped after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** The W3C element reference key (WebDriver spec, "web element identifier"). */
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

export interface ElementRef {
  [ELEMENT_KEY]: string;
}

export function isElementRef(value: unknown): value is ElementRef {
  return typeof value === 'object' && value !== null && ELEMENT_KEY in value;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A display for MiniBrowser: the current one, or an Xvfb on the first free display number from 90. */
export async function ensureDisplay(): Promise<{ display: string; stop: () => Promise<void> }> {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: async () => {} };
  for (let number = 90; number < 200; number++) {
    // X servers mark a taken display with a lock file; Xvfb exits at once on a taken one anyway.
    if (existsSync(`/tmp/.X${number}-lock`) || existsSync(`/tmp/.X11-unix/X${number}`)) continue;
    const xvfb = spawn('Xvfb', [`:${number}`, '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    const exited = new Promise<boolean>((resolve) => xvfb.once('exit', () => resolve(false)));
    const ready = (async () => {
      await waitUntil(async () => existsSync(`/tmp/.X11-unix/X${number}`) || xvfb.exitCode !== null, `Xvfb :${number}`, 10_000);
      return xvfb.exitCode === null;
    })();
    if (await Promise.race([ready, exited])) return { display: `:${number}`, stop: () => stopProcess(xvfb) };
  }
  throw new Error('No free X display number for Xvfb between :90 and :199.');
}

export class WebDriverError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(`WebDriver ${error}: ${message}`);
  }
}

/**
 * How long one WebDriver command may take, a script's own wait included. The flows' longest take under
 * a second (0.8 s at most of 1,337 commands in a run of WebKit's flows; their scripts wait a second at a
 * time); WebKitWebDriver now and then gives no answer for most of a minute while MiniBrowser is busy (55 s
 * in that run). A command it has not answered in 15 s has stalled: it fails, naming itself, so a caller
 * that asks again (a navigation's readiness query) does, the driver answering the next command at once,
 * and a test that cannot goes to its retry a minute sooner.
 */
const COMMAND_TIMEOUT_MS = 15_000;

/** One WebDriver session: the commands the flows use. */
export class WebDriverSession {
  constructor(
    private readonly base: string,
    readonly id: string,
    private readonly commandTimeoutMs = COMMAND_TIMEOUT_MS,
  ) {}

  async command<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.base}/session/${this.id}${path}`, {
      method,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      signal: AbortSignal.timeout(this.commandTimeoutMs),
    }).catch((error: unknown) => {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new WebDriverError(
          'timeout',
          `${method} ${path} had no answer from WebKitWebDriver within ${this.commandTimeoutMs / 1000} s`,
        );
      }
      throw error;
    });
    const json = (await response.json()) as { value: T & { error?: string; message?: string } };
    if (!response.ok) throw new WebDriverError(json.value?.error ?? String(response.status), json.value?.message ?? '');
    return json.value;
  }

  navigate(url: string): Promise<void> {
    return this.command('POST', '/url', { url });
  }
  currentUrl(): Promise<string> {
    return this.command('GET', '/url');
  }
  back(): Promise<void> {
    return this.command('POST', '/back');
  }
  refresh(): Promise<void> {
    return this.command('POST', '/refresh');
  }
  /** Runs a function body; a returned promise is awaited (WebDriver "execute script"). */
  execute<T>(script: string, args: unknown[] = []): Promise<T> {
    return this.command('POST', '/execute/sync', { script, args });
  }
  click(element: ElementRef): Promise<void> {
    return this.command('POST', `/element/${element[ELEMENT_KEY]}/click`);
  }
  /** Performs input actions (the Actions API), then releases what they left pressed. */
  private async perform(actions: object[]): Promise<void> {
    await this.command('POST', '/actions', { actions });
    await this.command('DELETE', '/actions');
  }
  /** Presses and releases keys where the focus is, one after another (text, or a key such as `\uE003`, Backspace). */
  typeKeys(keys: string[]): Promise<void> {
    const actions = keys.flatMap((value) => [
      { type: 'keyDown', value },
      { type: 'keyUp', value },
    ]);
    return this.perform([{ type: 'key', id: 'keyboard', actions }]);
  }
  /** A pointer click at a point of the viewport. */
  clickAt(x: number, y: number): Promise<void> {
    return this.perform([
      {
        type: 'pointer',
        id: 'mouse',
        parameters: { pointerType: 'mouse' },
        actions: [
          { type: 'pointerMove', x: Math.round(x), y: Math.round(y), origin: 'viewport' },
          { type: 'pointerDown', button: 0 },
          { type: 'pointerUp', button: 0 },
        ],
      },
    ]);
  }
  setWindowRect(width: number, height: number): Promise<{ width: number; height: number }> {
    return this.command('POST', '/window/rect', { width, height });
  }
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.command<string>('GET', '/screenshot'), 'base64');
  }
  async close(): Promise<void> {
    // Ending a session takes well under a second. A driver that stopped answering would otherwise hold
    // the test's afterEach to its whole two minutes before the retry: the engine stops the driver at the end.
    await fetch(`${this.base}/session/${this.id}`, { method: 'DELETE', signal: AbortSignal.timeout(10_000) }).catch(() => {});
  }
}

export interface WebKitDriver {
  newSession(options: { proxy: { http: string; ssl: string }; dark: boolean }): Promise<WebDriverSession>;
  stop(): Promise<void>;
}

/**
 * Starts WebKitWebDriver (and Xvfb when needed). A dark system is GTK's dark theme, which WebKitGTK
 * reports as prefers-color-scheme: dark; it is read at browser start, so the dark sessions come from
 * a second driver started with GTK_THEME=Adwaita:dark.
 */
export async function startWebKitDriver(): Promise<WebKitDriver> {
  if (!existsSync(WEBKIT_DRIVER) || !existsSync(MINIBROWSER)) {
    throw new Error(`WebKit is not installed (${WEBKIT_DRIVER}, ${MINIBROWSER}): \`sudo apt-get install webkit2gtk-driver xvfb\`.`);
  }
  const display = await ensureDisplay();
  const drivers = new Map<'light' | 'dark', Promise<{ base: string; child: ChildProcess }>>();

  const driverFor = (scheme: 'light' | 'dark') => {
    let started = drivers.get(scheme);
    if (!started) {
      started = (async () => {
        const port = await freePort();
        const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display.display };
        if (scheme === 'dark') env.GTK_THEME = 'Adwaita:dark';
        else delete env.GTK_THEME;
        const child = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env, stdio: 'ignore' });
        const base = `http://127.0.0.1:${port}`;
        await waitUntil(async () => (await fetch(`${base}/status`)).ok, 'WebKitWebDriver');
        return { base, child };
      })();
      drivers.set(scheme, started);
    }
    return started;
  };

  return {
    async newSession({ proxy, dark }) {
      const { base } = await driverFor(dark ? 'dark' : 'light');
      // MiniBrowser starts in well under a second idle, a few seconds on busy cores.
      const response = await fetch(`${base}/session`, {
        method: 'POST',
        signal: AbortSignal.timeout(30_000),
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          capabilities: {
            alwaysMatch: {
              browserName: 'MiniBrowser',
              // The driver's own wait for a navigation never ends on these pages (seen with WebKitGTK 2.50:
              // it hangs once React Router has hydrated), so navigations return at once and the page
              // adapter waits for the new document itself.
              pageLoadStrategy: 'none',
              // The fake Google scripts come from a throwaway local certificate (see network.ts).
              acceptInsecureCerts: true,
              ...(proxy ? { proxy: { proxyType: 'manual', httpProxy: proxy.http, sslProxy: proxy.ssl } } : {}),
              'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
            },
          },
        }),
      });
      const json = (await response.json()) as { value: { sessionId?: string; error?: string; message?: string } };
      if (!response.ok || !json.value.sessionId) {
        throw new WebDriverError(json.value.error ?? String(response.status), json.value.message ?? 'no session');
      }
      return new WebDriverSession(base, json.value.sessionId);
    },
    async stop() {
      for (const started of drivers.values()) await stopProcess((await started.catch(() => undefined))?.child);
      await display.stop();
    },
  };
}
