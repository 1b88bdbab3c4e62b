import { useEffect, useMemo, useState } from 'preact/hooks';
import rendererUrl from 'virtual:renderer-url';
import { PartFailed } from './Problem.tsx';

type Render = (source: string) => string;
let loading: Promise<Render> | undefined;
let ready: Render | undefined;
let failures = 0;
let failed = false;

function load(): Promise<Render> {
  failed = false;
  // After a failure the browser answers the same import with the same error: another address.
  const module: Promise<typeof import('../markdown.ts')> =
    failures === 0 ? import('../markdown.ts') : import(/* @vite-ignore */ `${rendererUrl}?retry=${failures}`);
  return module.then(
    (loaded) => (ready = loaded.renderMarkdown),
    (error: unknown) => {
      failures += 1;
      failed = true;
      throw error;
    },
  );
}

/**
 * The renderer (markdown-it and DOMPurify), loaded on first use so the lists' first load stays
 * small. Pages that show Markdown start loading it beside their data, so the text appears with
 * the page instead of moving it afterwards. A failed load stays failed (one attempt per page,
 * not one per caller) until `retryRenderer`.
 */
export function loadRenderer(): Promise<Render> {
  loading ??= load();
  return loading;
}

/** The server renders Markdown at once, with its own renderer (web/src/server.tsx). */
export function setRenderer(render: Render): void {
  ready = render;
  loading = Promise.resolve(render);
}

/** Loads the renderer again after a failed load (the "Retry" button). */
function retryRenderer(): Promise<Render> {
  if (failed) loading = load();
  return loadRenderer();
}

/** Markdown, rendered and sanitized (web/src/markdown.ts); an alert with "Retry" when the renderer failed to load. */
export function Markdown({ source, class: className = 'prose' }: { source: string; class?: string }) {
  const [render, setRender] = useState<Render | undefined>(() => ready);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (render) return;
    let current = true;
    (attempt === 0 ? loadRenderer() : retryRenderer()).then(
      (loaded) => current && setRender(() => loaded),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [attempt]);
  const html = useMemo(() => render?.(source), [render, source]);

  if (html !== undefined) {
    // The HTML is DOMPurify's output with the allow-list of markdown.ts.
    return <div class={className} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  if (failed) {
    return (
      <PartFailed
        subject="This text"
        onRetry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  return <div class={className} aria-busy="true" />;
}
