"""The Final Act numpy batch engine's games and agents: many games per array operation on
``rules.final_act.engine_batch`` (``games.play_many``); the compiled kernel plays the
same games."""
