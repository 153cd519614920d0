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
import dev.kubejobs.core.JobExecutionInfo;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobStatus;
import dev.kubejobs.core.spi.JobKind;
import dev.kubejobs.core.spi.JobStatusMapper;
import dev.kubejobs.core.spi.MappingDecision;
import dev.kubejobs.core.spi.ResourceKind;
import dev.kubejobs.core.spi.ResourceSnapshot;
import dev.kubejobs.testkit.ResourceType;
import java.util.Optional;

/**
 * A made-up job kind for the sweep, driver log and preflight tests: {@code
 * fakeapps.apps.kubejobs.dev/v1} {@code FakeApp}, whose spec is just its namespace. Its status may
 * name the driver pod ({@code status.driverPod}); its driver pods carry {@code role=driver} and
 * {@code app=<name>}; the driver container is {@value #DRIVER_CONTAINER}.
 */
public final class FakeAppKind implements JobKind<String> {
  /** The resource kind. */
  public static final ResourceKind KIND =
      new ResourceKind("apps.kubejobs.dev", "v1", "fakeapps", "FakeApp");

  /** The same kind, for the fake server. */
  public static final ResourceType TYPE = ResourceType.of(KIND);

  /** The driver container's name. */
  public static final String DRIVER_CONTAINER = "driver";

  @Override
  public ResourceKind resourceKind() {
    return KIND;
  }

  @Override
  public String namespaceOf(String spec) {
    return spec;
  }

  @Override
  public JsonObject manifest(String spec, JobIdentity identity) {
    return FakeApps.app(identity.name(), identity.labels(), identity.annotations());
  }

  @Override
  public JobStatusMapper statusMapper() {
    return (app, pod, now) ->
        MappingDecision.report(JobExecutionInfo.builder(JobStatus.QUEUED).build());
  }

  @Override
  public Optional<String> driverPodName(ResourceSnapshot application) {
    return application
        .status()
        .filter(s -> s.has("driverPod"))
        .map(s -> s.get("driverPod").getAsString());
  }

  @Override
  public String driverPodSelector(ResourceSnapshot application) {
    return "role=driver,app=" + application.name();
  }

  @Override
  public String driverContainerName(ResourceSnapshot application) {
    return DRIVER_CONTAINER;
  }
}
