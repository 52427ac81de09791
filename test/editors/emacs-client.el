;;; Drives dist/server.js from Emacs's own LSP client, eglot, configured by the README's snippet.
;;; Input from the environment, output as JSON to KR_RESULT; exits 0 only when every step ran.
(require 'json)
(require 'cl-lib)

;; The yaml-mode package is not in Debian's Emacs: a mode of that name stands in for it (eglot names
;; the language after the mode, "yaml").
(define-derived-mode yaml-mode text-mode "YAML")
(add-to-list 'auto-mode-alist '("\\.ya?ml\\'" . yaml-mode))
(load (getenv "KR_INIT") nil t)

(defun kr-wait (predicate seconds)
  "Let the client work until PREDICATE holds or SECONDS pass."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (when (bound-and-true-p flymake-mode) (flymake-start)))
    (funcall predicate)))

(defun kr-lsp-diagnostics ()
  "The LSP diagnostics flymake holds for this buffer, as the server sent them."
  (cl-loop for d in (flymake-diagnostics)
           for spec = (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))
           when spec collect spec))

(defun kr-run ()
  (let* ((file (getenv "KR_FILE"))
         (fix-rule (getenv "KR_FIX_RULE"))
         (fix-title (getenv "KR_FIX_TITLE"))
         (hover-line (string-to-number (getenv "KR_HOVER_LINE")))
         (result nil))
    (find-file file)
    ;; eglot-ensure connects after the command that opened the file, as in an interactive session.
    (run-hooks 'post-command-hook)
    (unless (kr-wait (lambda () (eglot-current-server)) 15) (error "eglot did not connect"))
    (unless (kr-wait (lambda () (kr-lsp-diagnostics)) 15) (error "no diagnostics within 15 s"))
    (push (cons 'before (vconcat (kr-lsp-diagnostics))) result)
    (let* ((server (eglot-current-server))
           (hover (progn (goto-char (point-min)) (forward-line hover-line)
                         (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))))
      (push (cons 'hover (plist-get (plist-get hover :contents) :value)) result)
      (let* ((target (cl-find-if (lambda (d) (equal (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))) :code) fix-rule))
                                 (flymake-diagnostics)))
             (actions (and target (eglot-code-actions (flymake-diagnostic-beg target) (flymake-diagnostic-end target))))
             (chosen (cl-find-if (lambda (a) (equal (plist-get a :title) fix-title)) actions)))
        (unless target (error "no %s diagnostic" fix-rule))
        (push (cons 'actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions))) result)
        (unless (plist-get chosen :edit) (error "no code action titled %s with an edit" fix-title))
        (eglot--apply-workspace-edit (plist-get chosen :edit))
        (save-buffer)
        (push (cons 'fixed_finding_gone
                    (if (kr-wait (lambda () (not (cl-find-if (lambda (d) (equal (plist-get d :code) fix-rule)) (kr-lsp-diagnostics)))) 10) t :json-false))
              result)
        (kr-wait (lambda () nil) 0.5)
        (push (cons 'after (vconcat (kr-lsp-diagnostics))) result)))
    (with-temp-file (getenv "KR_RESULT") (insert (json-encode result)))))

(condition-case err
    (progn (kr-run) (kill-emacs 0))
  (error (princ (format "emacs-client.el: %s\n" (error-message-string err)) #'external-debugging-output)
         (kill-emacs 1)))
