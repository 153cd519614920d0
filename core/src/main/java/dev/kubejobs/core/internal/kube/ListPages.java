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
package dev.kubejobs.core.internal.kube;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A list read as a pull: each {@link #next()} sends the request for the next page (under the
 * resilience policy, retried as one request: a page read again is parsed again from its bytes) and
 * returns the page to the caller, which does with its copies what it will before it asks for the
 * next. A continue token that outlived the server's compaction window (410 Expired) starts the list
 * again from its first page, which says so ({@link ListPage#startsOver()}). One reader; not thread
 * safe.
 */
public final class ListPages implements Iterator<ListPage> {
  private static final Logger LOG = LoggerFactory.getLogger(ListPages.class);

  /** How many times a list starts again after its continue token expired, before it fails. */
  static final int RESTARTS = 3;

  /** Sends the request of one page and parses it. */
  @FunctionalInterface
  interface PageRequest {
    /**
     * Reads one page.
     *
     * @param continueToken the continue token, null for the first page
     * @param restartable whether a 410 answer is to be thrown as an {@link ApiStatusException}
     */
    ListPageParser.Page read(String continueToken, boolean restartable);
  }

  private final String op;
  private final PageRequest request;
  private String continueToken;
  private boolean done;
  private int restarts;

  ListPages(String op, PageRequest request) {
    this.op = op;
    this.request = request;
  }

  @Override
  public boolean hasNext() {
    return !done;
  }

  /**
   * Reads the next page.
   *
   * @return the page
   * @throws NoSuchElementException after the last page
   * @throws dev.kubejobs.core.ApiUnavailableException when the server cannot be reached or answers
   *     garbage
   * @throws dev.kubejobs.core.JobRejectedException when forbidden or the kind is not served
   */
  @Override
  public ListPage next() {
    if (done) {
      throw new NoSuchElementException("the list's last page was read");
    }
    boolean startsOver = false;
    while (true) {
      boolean restartable = continueToken != null && restarts < RESTARTS;
      ListPageParser.Page page;
      try {
        page = request.read(continueToken, restartable);
      } catch (ApiStatusException expired) {
        restarts++;
        LOG.debug("'{}' restarts from the first page: its continue token expired (410)", op);
        continueToken = null;
        startsOver = true;
        continue;
      }
      ListPage out =
          new ListPage(
              startsOver, page.items(), page.held(), page.resourceVersion(), page.continueToken());
      continueToken = out.isLast() ? null : out.continueToken();
      done = out.isLast();
      return out;
    }
  }
}
