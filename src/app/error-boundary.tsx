import { Trans } from '@lingui/react/macro';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isRouteErrorResponse, Link, useLocation } from 'react-router-dom';

import { Button, buttonClass } from '@/ui/button';
import { ErrorIcon, RefreshIcon } from '@/ui/icons';

function reload() {
  window.location.reload();
}

/**
 * The last line of defence around the whole app (docs/product.md §2): a render error outside the router
 * shows this instead of a blank page.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('app: render error', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
        <ErrorIcon size={40} className="text-danger" />
        <p role="alert" className="max-w-md text-lg">
          <Trans>
            Une erreur est survenue. Veuillez actualiser la page ou contacter le support.
          </Trans>
        </p>
        <Button onClick={reload}>
          <RefreshIcon />
          <Trans>Actualiser la page</Trans>
        </Button>
      </main>
    );
  }
}

/** What a route error shows: the status and its text, or the error's message. */
export function describeRouteError(error: unknown): { status?: number; detail: string } {
  if (isRouteErrorResponse(error)) {
    return { status: error.status, detail: error.statusText || String(error.data ?? '') };
  }
  if (typeof Response !== 'undefined' && error instanceof Response) {
    return { status: error.status, detail: error.statusText };
  }
  if (error instanceof Error) return { detail: error.message };
  return { detail: typeof error === 'string' ? error : '' };
}

/** A failed lazy chunk: after a deploy, or offline before the worker cached it. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

/** The router's fallback (docs/product.md §2): "Unexpected Application Error!" with the details. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { status, detail } = describeRouteError(error);
  return (
    <div className="mx-auto flex max-w-xl flex-col justify-center gap-4 py-10">
      <h1 className="text-2xl font-bold">
        <Trans>Erreur inattendue de l’application !</Trans>
      </h1>
      {status !== undefined ? (
        <p className="text-lg" data-testid="route-error-status">
          <span className="font-semibold">{status}</span> {detail}
        </p>
      ) : (
        <pre
          className="overflow-x-auto rounded-lg bg-muted p-3 text-sm whitespace-pre-wrap"
          dir="auto"
        >
          {detail}
        </pre>
      )}
      {isChunkLoadError(error) && (
        <p className="text-fg-muted">
          <Trans>
            Cette page n’a pas pu être chargée. Vérifiez votre connexion, puis actualisez la page.
          </Trans>
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button onClick={reload}>
          <RefreshIcon />
          <Trans>Actualiser la page</Trans>
        </Button>
        <Link to="/home" className={buttonClass({ variant: 'secondary' })}>
          <Trans>Retour à l’accueil</Trans>
        </Link>
      </div>
    </div>
  );
}

class RouteBoundary extends Component<
  { children: ReactNode; resetKey: string },
  { error: unknown; failed: boolean; resetKey: string }
> {
  override state = { error: null as unknown, failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  // Another page: forget the error and try rendering again.
  static getDerivedStateFromProps(
    props: { resetKey: string },
    state: { resetKey: string; failed: boolean },
  ) {
    if (props.resetKey !== state.resetKey)
      return { resetKey: props.resetKey, failed: false, error: null };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('router: route error', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}

/** Catches a page's render errors (a failed lazy chunk too) inside the layout, per location. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <RouteBoundary resetKey={pathname}>{children}</RouteBoundary>;
}
