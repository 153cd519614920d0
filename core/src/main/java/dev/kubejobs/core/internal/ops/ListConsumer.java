/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.kubejobs.core.internal.ops;

import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.internal.KubeJobsContext;
import dev.kubejobs.core.internal.kube.ListPage;
import dev.kubejobs.core.internal.kube.ListPages;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The page-by-page consumption of the {@link StatusCache}'s LIST: takes the pages of a namespace's
 * list one at a time from {@link dev.kubejobs.core.internal.kube.KubeGateway#listPages}, and maps
 * each copy alone ({@link JobMemo#mapAhead}) as soon as its page arrives, on the listing thread,
 * while the copy is still in the processor's cache (walking whole pages of parsed trees afterwards
 * cost more than the mapping itself, in cache misses). A job the page holds unchanged (the same uid
 * and resourceVersion) keeps the memo the list before made of it.
 *
 * <p>Not a published API; thread safe.
 */
final class ListConsumer {
  private static final Logger LOG = LoggerFactory.getLogger(ListConsumer.class);

  private final KubeJobsContext<?> ctx;
  private final ResourceKind resourceKind;
  private final StatusPipeline pipeline;

  ListConsumer(KubeJobsContext<?> ctx, StatusPipeline pipeline) {
    this.ctx = ctx;
    this.resourceKind = ctx.jobKind().resourceKind();
    this.pipeline = pipeline;
  }

  /**
   * Reads a namespace's list to its end, page by page.
   *
   * @param pages the list's pages, opened with {@code held} as the copies to skip unchanged
   * @param held the jobs of the list before, by name
   * @param tick when the LIST was sent, on the operation's logical clock
   * @return the jobs listed, by name
   */
  Map<String, JobMemo> consume(
      ListPages pages, String namespace, Map<String, JobMemo> held, long tick) {
    Map<String, JobMemo> byName = new ConcurrentHashMap<>(Math.max(16, held.size() * 4 / 3 + 1));
    int items = 0;
    while (pages.hasNext()) {
      ListPage page = pages.next();
      if (page.startsOver()) {
        items = 0;
        byName.clear();
      }
      for (String name : page.held()) {
        // The same uid and resourceVersion: the very copy held, and its mapping too. A QUEUED
        // or CANCELLING one is mapped again at the new time when it is read.
        JobMemo same = held.get(name);
        if (same != null) { // else forgotten (after a cancel) while the page was read
          items++;
          byName.put(name, same);
        }
      }
      for (ResourceSnapshot item : page.items()) {
        items++;
        JobMemo entry = new JobMemo(item);
        byName.put(item.name(), entry);
        entry.mapAhead(
            ExecutionId.of(ctx.cluster(), resourceKind, namespace, item.name()),
            pipeline,
            tick,
            "it was listed");
      }
    }
    LOG.debug(
        "Listed {} {} in namespace {}, keeping {}",
        items,
        resourceKind.plural(),
        namespace,
        byName.size());
    return byName;
  }
}
