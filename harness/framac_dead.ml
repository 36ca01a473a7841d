(* Frama-C module of validate (issue 48, "proven means reached"): after
   EVA, every statement of a function EVA analysed, one line each,
   "<D|R>\t<line>\t<function>\t<file>" (D: EVA never reached it, R: it
   did), written to the file $IDLESPEC_EVA_DEAD and ended by "END".
   validate/framac.cc compiles it with ocamlopt (-shared, against Frama-C's
   own interfaces) and loads it with -load-module; a clause is not proven
   where a line of its function has statements and none EVA reached (a line,
   as a coverage tool counts them: a macro's untaken branch on a line EVA
   reached does not count). *)
let () =
  Db.Main.extend (fun () ->
      match Sys.getenv_opt "IDLESPEC_EVA_DEAD" with
      | None -> ()
      | Some path ->
          let out = open_out path in
          if Eva.Analysis.is_computed () then
            Globals.Functions.iter (fun kf ->
                if Kernel_function.is_definition kf && Eva.Results.is_called kf then
                  let fd = Kernel_function.get_definition kf in
                  List.iter
                    (fun stmt ->
                      let pos, _ = Cil_datatype.Stmt.loc stmt in
                      Printf.fprintf out "%s\t%d\t%s\t%s\n"
                        (if Eva.Results.is_reachable stmt then "R" else "D")
                        pos.Filepath.pos_lnum (Kernel_function.get_name kf)
                        (Filepath.Normalized.to_pretty_string pos.Filepath.pos_path))
                    fd.Cil_types.sallstmts);
          output_string out "END\n";
          close_out out)
