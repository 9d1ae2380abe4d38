// pwa/sw.js is a service worker: lib.webworker types its `self` as any worker's scope, so what a
// service worker's scope adds (ServiceWorkerGlobalScope) is named here, with the precache list
// api/phone/static_build.py writes in for `self.__PRECACHE__` (pairs [asked URL, kept URL]).
interface WorkerGlobalScope {
  __PRECACHE__: [string, string][];
  /** Each kept (hashed) URL's size in bytes: the precache's progress (js/ui/offline-ready.js). */
  __PRECACHE_SIZES__: Record<string, number>;
  readonly clients: Clients;
  skipWaiting(): Promise<void>;
}
interface WorkerGlobalScopeEventMap {
  install: ExtendableEvent;
  activate: ExtendableEvent;
  fetch: FetchEvent;
}
