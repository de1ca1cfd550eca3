import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { MetricError } from 'scholarly-metrics';
import { App } from './App.tsx';

// Every query's `error` is typed as the SDK's errors, so `instanceof RateLimitError` narrows it.
declare module '@tanstack/react-query' {
  interface Register {
    defaultError: MetricError;
  }
}

const queryClient = new QueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
