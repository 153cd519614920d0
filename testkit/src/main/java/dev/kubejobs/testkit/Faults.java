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
package dev.kubejobs.testkit;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The faults a fake API server currently injects; see {@link Fault}.
 *
 * <p>Thread safe: faults may be added and cleared while requests are served; each use of a fault is
 * counted atomically, so a fault with {@code times(n)} answers exactly {@code n} requests.
 */
public final class Faults {

  private final List<Entry> entries = new ArrayList<>();

  /** Creates an empty set of faults; servers create their own. */
  Faults() {}

  /**
   * Adds a fault after the ones already added; it answers matching requests until worn out.
   *
   * @param fault the fault
   * @return this, to add more
   */
  public synchronized Faults add(Fault fault) {
    entries.add(new Entry(fault));
    return this;
  }

  /** Removes every fault, worn out or not. */
  public synchronized void clear() {
    entries.clear();
  }

  /**
   * Returns the faults that are not worn out yet, in the order they were added.
   *
   * @return a snapshot of the active faults
   */
  public synchronized List<Fault> active() {
    List<Fault> result = new ArrayList<>();
    for (Entry e : entries) {
      result.add(e.fault);
    }
    return List.copyOf(result);
  }

  /**
   * Returns how many more requests a fault added to this server will answer.
   *
   * @param fault the fault, as added
   * @return the remaining uses (of its first addition), 0 if worn out or never added
   */
  public synchronized int remaining(Fault fault) {
    for (Entry e : entries) {
      if (e.fault == fault) {
        return e.remaining;
      }
    }
    return 0;
  }

  /**
   * Takes one use of the first fault that matches a request, removing it once worn out.
   *
   * @param method the HTTP method
   * @param path the path without query
   * @param clientId the id of the client that sent it, or {@code ""}
   * @return the fault to apply, or empty to answer normally
   */
  synchronized Optional<Fault> take(String method, String path, String clientId) {
    Iterator<Entry> it = entries.iterator();
    while (it.hasNext()) {
      Entry e = it.next();
      if (e.fault.matches(method, path, clientId)) {
        if (e.skipped < e.fault.skip()) {
          e.skipped++;
          continue;
        }
        if (!e.fault.isForever()) {
          e.remaining--;
          if (e.remaining <= 0) {
            it.remove();
          }
        }
        return Optional.of(e.fault);
      }
    }
    return Optional.empty();
  }

  private static final class Entry {
    final Fault fault;
    int remaining;
    int skipped;

    Entry(Fault fault) {
      this.fault = fault;
      this.remaining = fault.times();
    }
  }
}
