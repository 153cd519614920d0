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

/** The holds a fake API server has not used yet; see {@link Hold}. Thread safe. */
final class Holds {

  private final List<Hold> pending = new ArrayList<>();
  private final List<Hold> caught = new ArrayList<>();

  synchronized Hold add(Hold hold) {
    pending.add(hold);
    return hold;
  }

  /** Takes the first pending hold that catches this request, or null. */
  synchronized Hold take(String method, String path, String clientId) {
    Iterator<Hold> it = pending.iterator();
    while (it.hasNext()) {
      Hold h = it.next();
      if (h.tryCatch(method, path, clientId)) {
        it.remove();
        caught.add(h);
        return h;
      }
    }
    return null;
  }

  synchronized void done(Hold hold) {
    caught.remove(hold);
  }

  /** Releases every hold, waiting or not, and forgets them. */
  void releaseAll() {
    List<Hold> all;
    synchronized (this) {
      all = new ArrayList<>(pending);
      all.addAll(caught);
      pending.clear();
      caught.clear();
    }
    for (Hold h : all) {
      h.release();
    }
  }
}
