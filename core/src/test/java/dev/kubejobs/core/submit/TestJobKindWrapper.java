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
package dev.kubejobs.core.submit;

import com.google.gson.JsonObject;
import dev.kubejobs.core.JobIdentity;
import dev.kubejobs.core.JobKind;
import dev.kubejobs.core.JobStatusMapper;
import dev.kubejobs.core.ResourceKind;
import dev.kubejobs.core.ResourceSnapshot;
import dev.kubejobs.core.testing.TestJobKind;
import dev.kubejobs.core.testing.TestJobSpec;
import java.util.Optional;

/** The test kind under another resource kind. */
class TestJobKindWrapper implements JobKind<TestJobSpec> {
  private final TestJobKind delegate = new TestJobKind();
  private final ResourceKind kind;

  TestJobKindWrapper(ResourceKind kind) {
    this.kind = kind;
  }

  @Override
  public ResourceKind resourceKind() {
    return kind;
  }

  @Override
  public String namespaceOf(TestJobSpec spec) {
    return delegate.namespaceOf(spec);
  }

  @Override
  public JsonObject manifest(TestJobSpec spec, JobIdentity identity) {
    JsonObject m = delegate.manifest(spec, identity);
    m.addProperty("apiVersion", kind.apiVersion());
    return m;
  }

  @Override
  public JobStatusMapper statusMapper() {
    return delegate.statusMapper();
  }

  @Override
  public Optional<String> driverPodName(ResourceSnapshot application) {
    return delegate.driverPodName(application);
  }

  @Override
  public String driverPodSelector(ResourceSnapshot application) {
    return delegate.driverPodSelector(application);
  }

  @Override
  public String driverContainerName(ResourceSnapshot application) {
    return delegate.driverContainerName(application);
  }
}
