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
package dev.kubejobs.core.testing;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.spi.DriverPod;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The {@link TestJobKind} with its resource kind, manifest, status mapper, status fields, driver
 * pod name or selector of several driver pods replaced, for tests of what core does with what a job
 * kind returns; everything else is the test kind's. Immutable.
 */
public final class TestJobKindVariant implements JobKind<TestJobSpec> {
  private static final TestJobKind TEST_KIND = new TestJobKind();

  private final ResourceKind kind;
  private final BiFunction<TestJobSpec, JobIdentity, JsonObject> manifest;
  private final JobStatusMapper mapper;
  private final Function<ResourceSnapshot, Optional<String>> driverPodName;
  private final Set<String> statusFields;
  private final Function<Collection<ResourceSnapshot>, Optional<String>> driverPodsSelector;

  private TestJobKindVariant(
      ResourceKind kind,
      BiFunction<TestJobSpec, JobIdentity, JsonObject> manifest,
      JobStatusMapper mapper,
      Function<ResourceSnapshot, Optional<String>> driverPodName,
      Set<String> statusFields,
      Function<Collection<ResourceSnapshot>, Optional<String>> driverPodsSelector) {
    this.kind = kind;
    this.manifest = manifest;
    this.mapper = mapper;
    this.driverPodName = driverPodName;
    this.statusFields = statusFields;
    this.driverPodsSelector = driverPodsSelector;
  }

  private TestJobKindVariant(
      ResourceKind kind,
      BiFunction<TestJobSpec, JobIdentity, JsonObject> manifest,
      JobStatusMapper mapper,
      Function<ResourceSnapshot, Optional<String>> driverPodName,
      Set<String> statusFields) {
    this(kind, manifest, mapper, driverPodName, statusFields, TEST_KIND::driverPodsSelector);
  }

  private TestJobKindVariant(
      ResourceKind kind,
      BiFunction<TestJobSpec, JobIdentity, JsonObject> manifest,
      JobStatusMapper mapper,
      Function<ResourceSnapshot, Optional<String>> driverPodName) {
    this(kind, manifest, mapper, driverPodName, Set.of());
  }

  private TestJobKindVariant(
      ResourceKind kind,
      BiFunction<TestJobSpec, JobIdentity, JsonObject> manifest,
      JobStatusMapper mapper) {
    this(kind, manifest, mapper, TEST_KIND::driverPodName);
  }

  /** The test kind under another resource kind; its manifests name that kind's apiVersion. */
  public static TestJobKindVariant ofResourceKind(ResourceKind kind) {
    return new TestJobKindVariant(
        kind,
        (spec, identity) -> {
          JsonObject m = TEST_KIND.manifest(spec, identity);
          m.addProperty("apiVersion", kind.apiVersion());
          return m;
        },
        TEST_KIND.statusMapper());
  }

  /**
   * The test kind whose selector of several jobs' driver pods is {@code driverPodsSelector} (empty:
   * the kind cannot select several at once).
   */
  public static TestJobKindVariant withDriverPodsSelector(
      Function<Collection<ResourceSnapshot>, Optional<String>> driverPodsSelector) {
    return new TestJobKindVariant(
        TestJobKind.KIND,
        TEST_KIND::manifest,
        TEST_KIND.statusMapper(),
        TEST_KIND::driverPodName,
        Set.of(),
        driverPodsSelector);
  }

  /** The test kind whose manifests {@code manifest} builds. */
  public static TestJobKindVariant withManifest(
      BiFunction<TestJobSpec, JobIdentity, JsonObject> manifest) {
    return new TestJobKindVariant(TestJobKind.KIND, manifest, TEST_KIND.statusMapper());
  }

  /** The test kind whose statuses {@code mapper} maps. */
  public static TestJobKindVariant withMapper(JobStatusMapper mapper) {
    return new TestJobKindVariant(TestJobKind.KIND, TEST_KIND::manifest, mapper);
  }

  /**
   * The test kind whose mapper maps as the test kind's and says of every job that its executors
   * wait ({@link JobStatusMapper#executorsWaiting}), or of none.
   */
  public static TestJobKindVariant withExecutorsWaiting(boolean executorsWait) {
    JobStatusMapper mapper = TEST_KIND.statusMapper();
    return withMapper(
        new JobStatusMapper() {
          @Override
          public MappingDecision map(ResourceSnapshot app, DriverPod pod, Instant now) {
            return mapper.map(app, pod, now);
          }

          @Override
          public boolean executorsWaiting(ResourceSnapshot app) {
            return executorsWait;
          }
        });
  }

  /** The test kind whose statuses {@code mapper} maps, declaring {@code statusFields}. */
  public static TestJobKindVariant withStatusFields(
      Set<String> statusFields, JobStatusMapper mapper) {
    return new TestJobKindVariant(
        TestJobKind.KIND, TEST_KIND::manifest, mapper, TEST_KIND::driverPodName, statusFields);
  }

  /** The test kind whose driver pod {@code driverPodName} names (it may throw). */
  public static TestJobKindVariant withDriverPodName(
      Function<ResourceSnapshot, Optional<String>> driverPodName) {
    return new TestJobKindVariant(
        TestJobKind.KIND, TEST_KIND::manifest, TEST_KIND.statusMapper(), driverPodName);
  }

  @Override
  public ResourceKind resourceKind() {
    return kind;
  }

  @Override
  public String namespaceOf(TestJobSpec spec) {
    return TEST_KIND.namespaceOf(spec);
  }

  @Override
  public JsonObject manifest(TestJobSpec spec, JobIdentity identity) {
    return manifest.apply(spec, identity);
  }

  @Override
  public JobStatusMapper statusMapper() {
    return mapper;
  }

  @Override
  public Set<String> statusFields() {
    return statusFields;
  }

  @Override
  public Optional<String> driverPodName(ResourceSnapshot application) {
    return driverPodName.apply(application);
  }

  @Override
  public String driverPodSelector(ResourceSnapshot application) {
    return TEST_KIND.driverPodSelector(application);
  }

  @Override
  public Optional<String> driverPodsSelector(Collection<ResourceSnapshot> applications) {
    return driverPodsSelector.apply(applications);
  }

  @Override
  public String driverContainerName(ResourceSnapshot application) {
    return TEST_KIND.driverContainerName(application);
  }
}
