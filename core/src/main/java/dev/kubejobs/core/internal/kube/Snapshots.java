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

import dev.kubejobs.core.spi.ResourceSnapshot;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Makes a {@link ResourceSnapshot} of JSON that nobody else holds without the deep copy {@link
 * ResourceSnapshot#of} makes: the gateway parses each answer itself and hands the tree over, so
 * copying it again would only double the allocation of every LIST. Not a published API.
 *
 * <p>It reaches {@link ResourceSnapshot}'s private constructor through a private lookup, which
 * works only inside core's own module (or on the class path), so the snapshot hands its constructor
 * to nobody: no public registration method, no mutable static state. Thread safe.
 */
public final class Snapshots {
  /** {@code ResourceSnapshot(JsonObject)}, the constructor that keeps the object uncopied. */
  private static final MethodHandle ADOPT = adopter();

  private Snapshots() {}

  /**
   * Wraps JSON that the caller gives up: it must not be changed or handed out afterwards.
   *
   * @param json the object, with a {@code metadata} object
   * @return the snapshot holding {@code json} itself
   */
  static ResourceSnapshot adopt(JsonTree.Obj json) {
    try {
      return (ResourceSnapshot) ADOPT.invokeExact(json);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("the snapshot constructor threw " + e, e);
    }
  }

  private static MethodHandle adopter() {
    try {
      return MethodHandles.privateLookupIn(ResourceSnapshot.class, MethodHandles.lookup())
          .findConstructor(
              ResourceSnapshot.class, MethodType.methodType(void.class, JsonTree.Obj.class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot reach ResourceSnapshot's constructor", e);
    }
  }
}
