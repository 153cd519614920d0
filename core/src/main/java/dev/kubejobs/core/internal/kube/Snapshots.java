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

import com.google.gson.JsonObject;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.lang.invoke.MethodHandles;
import java.util.Objects;
import java.util.function.Function;

/**
 * Makes a {@link ResourceSnapshot} of JSON that nobody else holds without the deep copy {@link
 * ResourceSnapshot#of} makes: the gateway parses each answer itself and hands the tree over, so
 * copying it again would only double the allocation of every LIST. Not a published API.
 *
 * <p>{@link ResourceSnapshot} registers the factory once, from its static initializer; any later
 * registration is refused. Thread safe.
 */
public final class Snapshots {
  private static volatile Function<JsonObject, ResourceSnapshot> adopter;

  private Snapshots() {}

  /**
   * Registers the factory that wraps JSON without copying; called by {@link ResourceSnapshot}.
   *
   * @param factory the factory
   * @throws IllegalStateException if one is registered already
   */
  public static synchronized void register(Function<JsonObject, ResourceSnapshot> factory) {
    if (adopter != null) {
      throw new IllegalStateException("the snapshot factory is registered already");
    }
    adopter = Objects.requireNonNull(factory, "factory");
  }

  /**
   * Wraps JSON that the caller gives up: it must not be changed or handed out afterwards.
   *
   * @param json the object, with a {@code metadata} object
   * @return the snapshot holding {@code json} itself
   */
  static ResourceSnapshot adopt(JsonObject json) {
    Function<JsonObject, ResourceSnapshot> f = adopter;
    if (f == null) {
      try {
        MethodHandles.lookup().ensureInitialized(ResourceSnapshot.class);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot initialize ResourceSnapshot", e);
      }
      f = adopter;
    }
    return f.apply(json);
  }
}
