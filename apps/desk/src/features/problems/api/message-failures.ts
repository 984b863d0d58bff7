import type { MessageFailure } from '@marpe/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const FAILURES_PAGE_SIZE = 20;
/** How often the open page asks again: problems come and go by themselves. */
export const PROBLEMS_REFRESH_MS = 10_000;

export const messageFailuresKey = ['problems', 'message-failures'] as const;

/** The clinic's messages that did not go, newest first, a page at a time (`before`). */
export const useMessageFailures = () =>
  useInfiniteQuery({
    queryKey: messageFailuresKey,
    queryFn: ({ pageParam, signal }) =>
      api<MessageFailure[]>(
        `/api/integration/message-failures?${new URLSearchParams({
          limit: String(FAILURES_PAGE_SIZE),
          ...(pageParam === null ? {} : { before: String(pageParam) }),
        })}`,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.length < FAILURES_PAGE_SIZE ? null : (last[last.length - 1]?.id ?? null),
    refetchInterval: PROBLEMS_REFRESH_MS,
  });
